import { sidebarEntries, type MenuContext, type MenuItem, type Sidebar } from '../../lib/menu';

/** The Project Settings sidebar: shown for /projects/{key}/… pages. */
export type SidebarMode = Sidebar | 'project';

export const ADMIN_HOME = '/admin/artifactory/list';
export const APPLICATION_HOME = '/overview';

export function sidebarForPath(pathname: string): SidebarMode {
  if (pathname.startsWith('/projects/')) return 'project';
  return pathname === '/admin' || pathname.startsWith('/admin/') ? 'administration' : 'application';
}

/**
 * Where the Administration switch leads: its home for an administrator; for the holder of a
 * security scanning role, the first administration page open to them (Security & Compliance).
 */
export function administrationHome(items: MenuItem[], ctx: MenuContext | undefined): string {
  if (!ctx || ctx.admin) return ADMIN_HOME;
  return (
    sidebarEntries(items, 'administration', ctx).find((e) => e.status.state === 'visible')?.item.path ?? ADMIN_HOME
  );
}

/**
 * Spec part 1 §2: Project Settings and Application when the user can administer the selected
 * project; otherwise Application and Administration (the latter for administrators, and for the
 * holders of a security scanning role, who find there the pages open to them).
 */
export function sidebarChoices(
  administration: boolean,
  projectAdminOfSelected: boolean,
  current?: SidebarMode,
): SidebarMode[] {
  const choices: SidebarMode[] = projectAdminOfSelected
    ? ['application', 'project']
    : administration
      ? ['application', 'administration']
      : [];
  // the switch always says where the user is: the area they are in stays among its choices
  if (choices.length && current && !choices.includes(current)) choices.push(current);
  return choices;
}
