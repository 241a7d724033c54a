import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/monitoring/audit_trail',
    admin: true,
    menuKey: 'audit-trail',
    menu: {
      order: 77,
      key: 'audit-trail',
      minRank: 1,
      label: 'Audit Trail',
      sidebar: 'administration',
      group: 'Monitoring',
      description: 'Sign-ins and every change to users, groups, permissions and tokens',
      adminOnly: true,
    },
    page: () => import('./pages/audit-trail-page'),
    component: 'AuditTrailPage',
  },
];
