import type { Sidebar } from '../../lib/menu';

/** The Project Settings sidebar: shown for /projects/{key}/… pages. */
export type SidebarMode = Sidebar | 'project';

export const ADMIN_HOME = '/admin/artifactory/list';
export const APPLICATION_HOME = '/overview';

export function sidebarForPath(pathname: string): SidebarMode {
  if (pathname.startsWith('/projects/')) return 'project';
  return pathname === '/admin' || pathname.startsWith('/admin/') ? 'administration' : 'application';
}

/**
 * Spec part 1 §2: Project Settings and Application when the user can administer the selected
 * project; otherwise Application and Administration (the latter for administrators only).
 */
export function sidebarChoices(admin: boolean, projectAdminOfSelected: boolean, current?: SidebarMode): SidebarMode[] {
  const choices: SidebarMode[] = projectAdminOfSelected
    ? ['application', 'project']
    : admin
      ? ['application', 'administration']
      : [];
  // the switch always says where the user is: the area they are in stays among its choices
  if (choices.length && current && !choices.includes(current)) choices.push(current);
  return choices;
}
