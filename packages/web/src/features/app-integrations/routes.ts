import type { ConsoleRoute } from '../../lib/console-route';

/** The console's pages of this feature: each path written here once; the router, the menus and the guards read it. */
export const routes: ConsoleRoute[] = [
  {
    path: '/oauth/authorize',
    title: 'Authorise an application',
    page: () => import('./pages/oauth-authorize-page'),
    component: 'OAuthAuthorizePage',
  },
  {
    id: 'terraform.oauth2.authorize',
    path: '/terraform/oauth2/authorize',
    title: 'Terraform login',
    page: () => import('./pages/terraform-authorize-page'),
    component: 'TerraformAuthorizePage',
  },
  {
    path: '/admin/configuration/integrations',
    admin: true,
    menuKey: 'app-integrations',
    title: 'Application Integrations',
    menu: {
      order: 71,
      key: 'app-integrations',
      minRank: 1,
      label: 'Application Integrations',
      sidebar: 'administration',
      group: 'Configuration',
      description: 'Applications that sign users in with OAuth 2.0 and act on their behalf',
      adminOnly: true,
    },
    page: () => import('./pages/app-integrations-page'),
    component: 'AppIntegrationsPage',
  },
  {
    path: '/admin/configuration/integrations/new',
    admin: true,
    menuKey: 'app-integrations',
    title: 'New Application Integration',
    page: () => import('./pages/new-app-integration-page'),
    component: 'NewAppIntegrationPage',
  },
];
