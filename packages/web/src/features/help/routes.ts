import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/pipelinesSearchResults',
    title: 'Pipelines search results',
    menuKey: 'pipelines-teaser',
    page: () => import('./pages/teaser-pages'),
    component: 'PipelinesTeaserPage',
  },
  // the PDN Server's page: the network's teaser until this deployment runs one
  {
    path: '/admin/monitoring/pdn',
    admin: true,
    menuKey: 'pdn-teaser',
    title: 'PDN Server',
    page: () => import('./pages/teaser-pages'),
    component: 'PdnTeaserPage',
  },
  // security scanning is part of Arca: the teaser's old address goes to its pages
  { path: '/admin/security-and-compliance-teaser', admin: true, redirect: '/admin/security/policies' },
  {
    path: '/admin/pipelines-teaser',
    admin: true,
    menuKey: 'pipelines-teaser',
    menu: {
      order: 53,
      key: 'pipelines-teaser',
      minRank: 1,
      label: 'Pipelines',
      sidebar: 'administration',
      group: 'Platform Services',
      description: 'CI/CD pipelines next to the repositories: not part of this deployment',
      adminOnly: true,
    },
    page: () => import('./pages/teaser-pages'),
    component: 'PipelinesTeaserPage',
  },
  {
    path: '/admin/pdn-teaser',
    admin: true,
    menuKey: 'pdn-teaser',
    menu: {
      order: 54,
      key: 'pdn-teaser',
      minRank: 1,
      label: 'Distribution Network',
      sidebar: 'administration',
      group: 'Platform Services',
      description: 'Peer-to-peer downloads of large releases: not part of this deployment',
      adminOnly: true,
    },
    page: () => import('./pages/teaser-pages'),
    component: 'PdnTeaserPage',
  },
  {
    path: '/education-center',
    title: 'Education Center',
    page: () => import('./pages/education-center-page'),
    component: 'EducationCenterPage',
  },
];
