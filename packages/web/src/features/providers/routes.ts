import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/security/authentication-providers/:provider?',
    admin: true,
    menuKey: 'authentication-providers',
    title: 'Authentication Providers',
    menu: {
      order: 58,
      key: 'authentication-providers',
      minRank: 1,
      label: 'Authentication Providers',
      sidebar: 'administration',
      group: 'Security',
      description:
        'LDAP and Active Directory servers, with their groups, and OpenID Connect providers users sign in through',
      adminOnly: true,
    },
    page: () => import('./pages/authentication-providers-page'),
    component: 'AuthenticationProvidersPage',
  },
];
