import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/configuration/general',
    admin: true,
    menuKey: 'general-settings',
    menu: {
      order: 47,
      key: 'general-settings',
      minRank: 1,
      label: 'General Settings',
      sidebar: 'administration',
      group: 'Configuration',
      description: 'Server name, URL base, upload limit, date format, logo and the reverse proxy',
      adminOnly: true,
    },
    page: () => import('./pages/general-settings-page'),
    component: 'GeneralSettingsPage',
  },
  {
    path: '/admin/proxies/configuration/list',
    admin: true,
    menuKey: 'proxies',
    menu: {
      order: 48,
      key: 'proxies',
      minRank: 1,
      label: 'Proxies',
      sidebar: 'administration',
      group: 'Configuration',
      description: 'The HTTP proxies remote repositories and webhooks go through',
      adminOnly: true,
    },
    page: () => import('./pages/proxies-page'),
    component: 'ProxiesPage',
  },
  {
    path: '/admin/proxies/configuration/new',
    admin: true,
    menuKey: 'proxies',
    title: 'New Proxy',
    page: () => import('./pages/proxy-form-page'),
    component: 'ProxyFormPage',
  },
  {
    path: '/admin/proxies/configuration/edit/:proxyName',
    admin: true,
    menuKey: 'proxies',
    title: 'Edit Proxy',
    page: () => import('./pages/proxy-form-page'),
    component: 'ProxyFormPage',
  },
  { path: '/admin/proxies/configuration', redirect: '/admin/proxies/configuration/list' },
];
