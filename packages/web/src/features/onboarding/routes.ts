import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/quick-setup',
    admin: true,
    title: 'Quick Setup',
    page: () => import('./pages/quick-setup-page'),
    component: 'QuickSetupPage',
  },
];
