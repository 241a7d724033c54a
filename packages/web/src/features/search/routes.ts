import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/artifactSearchResults',
    title: 'Search results',
    menuKey: 'artifacts',
    page: () => import('./pages/search-results-page'),
    component: 'SearchResultsPage',
  },
];
