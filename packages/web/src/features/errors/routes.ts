import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  { path: '/404', bare: true, public: true, page: () => import('./pages/error-pages'), component: 'NotFoundPage' },
  {
    path: '/406/:requestId',
    bare: true,
    public: true,
    page: () => import('./pages/error-pages'),
    component: 'NotAcceptablePage',
  },
  { path: '/500', bare: true, public: true, page: () => import('./pages/error-pages'), component: 'ServerErrorPage' },
  {
    path: '/authorization',
    bare: true,
    public: true,
    page: () => import('./pages/error-pages'),
    component: 'NotAuthorizedPage',
  },
];
