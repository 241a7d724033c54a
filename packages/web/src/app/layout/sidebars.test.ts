import { describe, expect, it } from 'vitest';
import { pathForProject } from '../../lib/project-path';
import { menuItems } from '../menu';
import { ADMIN_HOME, administrationHome, sidebarChoices, sidebarForPath } from './sidebars';

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
    // an administrator in the administration area who selects a project he administers: still told where he is
    expect(sidebarChoices(true, true, 'administration')).toEqual(['application', 'project', 'administration']);
    expect(sidebarChoices(true, false, 'administration')).toEqual(['application', 'administration']);
  });

  it('leads a holder of a security scanning role to the administration pages open to him: Security & Compliance', () => {
    const ctx = {
      admin: false,
      scanningRole: true,
      licenseRank: 1,
      services: { access: true, artifactory: true },
      features: {},
      cloud: false,
      dedicatedCloud: false,
    };
    expect(administrationHome(menuItems(), ctx)).toBe('/admin/security/policies');
    expect(administrationHome(menuItems(), { ...ctx, admin: true })).toBe(ADMIN_HOME);
    expect(sidebarChoices(true, false)).toEqual(['application', 'administration']);
  });

  it('keeps the user in the area he was in when he selects another project', () => {
    expect(pathForProject('/repos/tree/General/libs', 'web', true)).toBeUndefined();
    expect(pathForProject('/admin/repositories', 'web', true)).toBeUndefined();
    expect(pathForProject('/projects/api/members', 'web', true)).toBe('/projects/web/members');
    expect(pathForProject('/projects/api', 'web', true)).toBe('/projects/web/general');
    expect(pathForProject('/projects/api/members', 'web', false)).toBe('/overview');
  });
});
