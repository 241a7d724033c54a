import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/integrations',
    title: 'Integrations',
    menuKey: 'integrations',
    menu: {
      order: 21,
      key: 'integrations',
      label: 'Integrations',
      sidebar: 'application',
      minRank: 1,
      description: 'Source-control accounts, and the IDEs and CLI you connect with your own credentials',
    },
    page: () => import('./pages/integrations-page'),
    component: 'IntegrationsPage',
  },
  {
    path: '/integrations/:vendorName/:serviceName?',
    admin: true,
    menuKey: 'integrations',
    title: 'Integrations',
    page: () => import('./pages/vendor-integrations-page'),
    component: 'VendorIntegrationsPage',
  },
];
