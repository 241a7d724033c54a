import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/mission_control/access_federation',
    admin: true,
    menuKey: 'access-federation',
    title: 'Access Federation',
    menu: {
      order: 62,
      key: 'access-federation',
      minRank: 1,
      label: 'Access Federation',
      sidebar: 'administration',
      group: 'Platform Management',
      description: 'Users, groups, permissions and tokens kept alike between deployments (full mesh or star)',
      adminOnly: true,
    },
    page: () => import('./pages/access-federation-page'),
    component: 'AccessFederationPage',
  },
  {
    path: '/admin/mission_control/access_federation/mesh',
    admin: true,
    menuKey: 'access-federation',
    title: 'Full Mesh',
    page: () => import('./pages/federation-wizard-page'),
    component: 'FederationWizardPage',
  },
  {
    path: '/admin/mission_control/access_federation/star',
    admin: true,
    menuKey: 'access-federation',
    title: 'Star',
    page: () => import('./pages/federation-wizard-page'),
    component: 'FederationWizardPage',
  },
  {
    path: '/admin/mission_control/access_federation/star/:federationId',
    admin: true,
    menuKey: 'access-federation',
    title: 'Edit Star',
    page: () => import('./pages/federation-wizard-page'),
    component: 'FederationWizardPage',
  },
];
