import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/license_management/licenses',
    admin: true,
    menuKey: 'licenses',
    menu: {
      order: 93,
      key: 'licenses',
      label: 'Licenses',
      sidebar: 'administration',
      group: 'License Management',
      description: 'The installed license, and installing a new key',
      adminOnly: true,
    },
    page: () => import('./pages/licenses-page'),
    component: 'LicensesPage',
  },
];
