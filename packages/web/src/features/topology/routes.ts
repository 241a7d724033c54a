import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/mission_control/topology/:id?',
    admin: true,
    menuKey: 'topology',
    title: 'Topology',
    menu: {
      order: 61,
      key: 'topology',
      minRank: 1,
      label: 'Topology',
      sidebar: 'administration',
      group: 'Platform Management',
      description: 'The managed deployments on a map and as a graph of federation and replication links',
      adminOnly: true,
    },
    page: () => import('./pages/topology-page'),
    component: 'TopologyPage',
  },
];
