import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/template',
    title: 'Page template',
    testedFeature: true,
    page: () => import('./pages/template-page'),
    component: 'TemplatePage',
  },
];
