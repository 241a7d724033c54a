import type { ConsoleRoute } from '../../lib/console-route';

const page = () => import('./pages/security-page');

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/admin/security/policies',
    admin: true,
    scanningRoles: true,
    menuKey: 'security-scanning',
    title: 'Security & Compliance',
    menu: {
      order: 52,
      key: 'security-scanning',
      minRank: 1,
      label: 'Security & Compliance',
      sidebar: 'administration',
      group: 'Platform Services',
      description:
        'Policies that block vulnerable or banned-license downloads, the watches that apply them, ignore rules',
      adminOnly: true,
      // the holders of a security scanning role find their pages here too
      scanningRoles: true,
    },
    page,
    component: 'PoliciesPage',
  },
  {
    path: '/admin/security/watches',
    admin: true,
    scanningRoles: true,
    menuKey: 'security-scanning',
    title: 'Watches',
    page,
    component: 'WatchesPage',
  },
  {
    path: '/admin/security/ignore-rules',
    admin: true,
    scanningRoles: true,
    menuKey: 'security-scanning',
    title: 'Ignore Rules',
    page,
    component: 'IgnoreRulesPage',
  },
  {
    path: '/admin/security/advisories',
    admin: true,
    menuKey: 'security-scanning',
    title: 'Advisories',
    page: () => import('./pages/advisories-page'),
    component: 'AdvisoriesPage',
  },
  {
    // the security scanning search: every signed-in user, over what they may read
    path: '/security/vulnerabilities',
    title: 'Vulnerability Search',
    page: () => import('./pages/vulnerability-search-page'),
    component: 'VulnerabilitySearchPage',
  },
];
