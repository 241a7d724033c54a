import type { Sidebar } from '../menu';

export const ADMIN_HOME = '/admin/artifactory/list';
export const APPLICATION_HOME = '/overview';

export function sidebarForPath(pathname: string): Sidebar {
  return pathname === '/admin' || pathname.startsWith('/admin/') ? 'administration' : 'application';
}
