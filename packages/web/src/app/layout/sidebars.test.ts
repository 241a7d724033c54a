import { describe, expect, it } from 'vitest';
import { sidebarChoices, sidebarForPath } from './sidebars';

describe('sidebars', () => {
  it('picks the sidebar of a path', () => {
    expect(sidebarForPath('/admin/management/users')).toBe('administration');
    expect(sidebarForPath('/projects/web/members')).toBe('project');
    expect(sidebarForPath('/repos/tree/General')).toBe('application');
  });
  it('offers Project Settings and Application to whoever administers the selected project, else Administration to admins', () => {
    expect(sidebarChoices(true, true)).toEqual(['application', 'project']);
    expect(sidebarChoices(false, true)).toEqual(['application', 'project']);
    expect(sidebarChoices(true, false)).toEqual(['application', 'administration']);
    expect(sidebarChoices(false, false)).toEqual([]);
  });
});
