import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/management/access_tokens',
    admin: true,
    menuKey: 'access-tokens',
    menu: {
      order: 45,
      key: 'access-tokens',
      minRank: 1,
      label: 'Access Tokens',
      sidebar: 'administration',
      group: 'User Management',
      description: 'Review and revoke the tokens of every user',
      adminOnly: true,
      service: 'access',
    },
    page: () => import('./pages/access-tokens-page'),
    component: 'AccessTokensPage',
  },
  { path: '/profile', title: 'Edit Profile', page: () => import('./pages/profile-page'), component: 'ProfilePage' },
];
