import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/artifactory/security/general',
    admin: true,
    menuKey: 'security-general',
    menu: {
      order: 46,
      key: 'security-general',
      minRank: 1,
      label: 'Security Configuration',
      sidebar: 'administration',
      group: 'Security',
      description: 'Anonymous access, password policy, lockout and session timeout',
      adminOnly: true,
    },
    page: () => import('./pages/security-settings-page'),
    component: 'SecuritySettingsPage',
  },
];
