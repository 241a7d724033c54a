import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  // the deployments bound to this one are its registrations
  {
    path: '/admin/mission_control/deployment_bindings',
    admin: true,
    menuKey: 'platform-units',
    title: 'Deployment Bindings',
    page: () => import('./pages/platform-units-page'),
    component: 'PlatformUnitsPage',
  },
  {
    path: '/admin/mission_control/platform_units',
    admin: true,
    menuKey: 'platform-units',
    title: 'Platform Deployments',
    menu: {
      order: 59,
      key: 'platform-units',
      minRank: 1,
      label: 'Platform Deployments',
      sidebar: 'administration',
      group: 'Platform Management',
      description: 'Other Arca deployments this one manages, their health and pairing',
      adminOnly: true,
    },
    page: () => import('./pages/platform-units-page'),
    component: 'PlatformUnitsPage',
  },
  {
    path: '/admin/mission_control/platform_units/add',
    admin: true,
    menuKey: 'platform-units',
    title: 'Add Deployment',
    page: () => import('./pages/platform-unit-form-page'),
    component: 'PlatformUnitFormPage',
  },
  {
    path: '/admin/mission_control/platform_units/:id',
    admin: true,
    menuKey: 'platform-units',
    title: 'Edit Deployment',
    page: () => import('./pages/platform-unit-form-page'),
    component: 'PlatformUnitFormPage',
  },
];
