import { Button } from 'antd';
import { FullPageMessage } from '../components/full-page-message';
import { createBrowserRouter, Navigate, useRouteError, type RouteObject } from 'react-router';
import { CHUNK_LOAD_TIMEOUT_MS } from '@arca/contracts';
import { HANDLES, SERVICE_NOT_FOUND_HANDLES } from './route-handles';
import { FullPageSpinner, Root } from './root';
import { SUB_APPLICATION_PREFIXES } from './sub-applications';

/** A lazy route module that fails with ChunkLoadError when it has not arrived in 120 s. */
function page<T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T) {
  return async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error('A part of the console did not load in time.');
        error.name = 'ChunkLoadError';
        reject(error);
      }, CHUNK_LOAD_TIMEOUT_MS);
    });
    try {
      const module = await Promise.race([load(), timeout]);
      return { Component: module[name] as React.ComponentType };
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Shown when a route module could not be loaded or a page failed to render. */
function RouteError() {
  const error = useRouteError() as Error | undefined;
  const chunk =
    error?.name === 'ChunkLoadError' ||
    /dynamically imported module|Importing a module script/.test(error?.message ?? '');
  return (
    <FullPageMessage
      title={chunk ? 'This part of the console could not be loaded' : 'This page failed'}
      text={chunk ? 'The console may have been updated. Reload to get the current version.' : error?.message}
      action={
        <Button type="primary" onClick={() => window.location.reload()}>
          Reload
        </Button>
      }
    />
  );
}

/**
 * The route table of spec part 1 §2: path, lazy page, what it needs (handle) and its menu entry.
 * Unknown paths go to /404, except the prefixes that belong to sub-applications.
 */
export const ROUTES: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    HydrateFallback: FullPageSpinner,
    children: [
      { path: '/', element: null },
      { path: '/home', element: null },
      {
        path: '/login',
        handle: HANDLES['/login'],
        lazy: page(() => import('../features/auth/pages/login-page'), 'LoginPage'),
      },
      {
        id: 'otpLogin',
        path: '/login/otp-login',
        handle: HANDLES['/login/otp-login'],
        lazy: page(() => import('../features/auth/pages/otp-login-page'), 'OtpLoginPage'),
      },
      {
        id: 'mfaEnroll',
        path: '/login/mfa-enroll',
        handle: HANDLES['/login/mfa-enroll'],
        lazy: page(() => import('../features/auth/pages/mfa-enroll-page'), 'MfaEnrollPage'),
      },
      {
        id: 'forgotPassword',
        path: '/login/forgot-password',
        handle: HANDLES['/login/forgot-password'],
        lazy: page(() => import('../features/auth/pages/forgot-password-page'), 'ForgotPasswordPage'),
      },
      {
        id: 'resetPassword',
        path: '/login/reset-password',
        handle: HANDLES['/login/reset-password'],
        lazy: page(() => import('../features/auth/pages/reset-password-page'), 'ResetPasswordPage'),
      },
      {
        path: '/auth/reset-password',
        handle: HANDLES['/auth/reset-password'],
        lazy: page(() => import('../features/auth/pages/reset-password-page'), 'ResetPasswordPage'),
      },
      {
        id: 'changePassword',
        path: '/login/change-password/:userName?',
        handle: HANDLES['/login/change-password/:userName?'],
        lazy: page(() => import('../features/auth/pages/change-password-page'), 'ChangePasswordPage'),
      },
      {
        id: 'invitation',
        path: '/login/invitation',
        handle: HANDLES['/login/invitation'],
        lazy: page(() => import('../features/auth/pages/invitation-page'), 'InvitationPage'),
      },
      {
        id: 'cli-registration',
        path: '/login/cli-registration',
        handle: HANDLES['/login/cli-registration'],
        lazy: page(() => import('../features/auth/pages/web-login-page'), 'CliRegistrationPage'),
      },
      {
        // allowed as the place to go back to after a sign-in: the same approval
        id: 'cli-login',
        path: '/login/cli',
        handle: HANDLES['/login/cli'],
        lazy: page(() => import('../features/auth/pages/web-login-page'), 'CliRegistrationPage'),
      },
      {
        id: 'sso-login',
        path: '/login/sso/:ssoLoginType',
        handle: HANDLES['/login/sso/:ssoLoginType'],
        lazy: page(() => import('../features/auth/pages/sso-login-page'), 'SsoLoginPage'),
      },
      { path: '/auth', handle: HANDLES['/auth'], element: <Navigate to="/login" replace /> },
      {
        path: '/logout',
        handle: HANDLES['/logout'],
        lazy: page(() => import('../features/auth/pages/logout-route'), 'LogoutRoute'),
      },
      {
        path: '/404',
        handle: HANDLES['/404'],
        lazy: page(() => import('../features/errors/pages/error-pages'), 'NotFoundPage'),
      },
      {
        path: '/406/:requestId',
        handle: HANDLES['/406/:requestId'],
        lazy: page(() => import('../features/errors/pages/error-pages'), 'NotAcceptablePage'),
      },
      {
        path: '/500',
        handle: HANDLES['/500'],
        lazy: page(() => import('../features/errors/pages/error-pages'), 'ServerErrorPage'),
      },
      {
        path: '/authorization',
        handle: HANDLES['/authorization'],
        lazy: page(() => import('../features/errors/pages/error-pages'), 'NotAuthorizedPage'),
      },
      {
        lazy: page(() => import('./layout/app-layout'), 'AppLayout'),
        children: [
          {
            path: '/overview',
            handle: HANDLES['/overview'],
            lazy: page(() => import('../features/overview/pages/overview-page'), 'OverviewPage'),
          },
          {
            path: '/repos/tree/General/*',
            handle: HANDLES['/repos/tree/General/*'],
            lazy: page(() => import('../features/artifacts/pages/tree-browser-page'), 'TreeBrowserPage'),
          },
          {
            path: '/packages/:packageId?/:versionId?',
            handle: HANDLES['/packages/:packageId?/:versionId?'],
            lazy: page(() => import('../features/packages/pages/packages-page'), 'PackagesRoute'),
          },
          {
            path: '/builds/:name?/:number?',
            handle: HANDLES['/builds/:name?/:number?'],
            lazy: page(() => import('../features/builds/pages/builds-page'), 'BuildsRoute'),
          },
          {
            id: 'terraform.oauth2.authorize',
            path: '/terraform/oauth2/authorize',
            handle: HANDLES['/terraform/oauth2/authorize'],
            lazy: page(
              () => import('../features/app-integrations/pages/terraform-authorize-page'),
              'TerraformAuthorizePage',
            ),
          },
          {
            path: '/oauth/authorize',
            handle: HANDLES['/oauth/authorize'],
            lazy: page(() => import('../features/app-integrations/pages/oauth-authorize-page'), 'OAuthAuthorizePage'),
          },
          {
            path: '/integrations',
            handle: HANDLES['/integrations'],
            lazy: page(() => import('../features/integrations/pages/integrations-page'), 'IntegrationsPage'),
          },
          {
            path: '/integrations/:vendorName/:serviceName?',
            handle: HANDLES['/integrations/:vendorName/:serviceName?'],
            lazy: page(
              () => import('../features/integrations/pages/vendor-integrations-page'),
              'VendorIntegrationsPage',
            ),
          },
          {
            path: '/admin/configuration/integrations',
            handle: HANDLES['/admin/configuration/integrations'],
            lazy: page(() => import('../features/app-integrations/pages/app-integrations-page'), 'AppIntegrationsPage'),
          },
          {
            path: '/admin/configuration/integrations/new',
            handle: HANDLES['/admin/configuration/integrations/new'],
            lazy: page(
              () => import('../features/app-integrations/pages/new-app-integration-page'),
              'NewAppIntegrationPage',
            ),
          },
          {
            path: '/web-login/:id',
            handle: HANDLES['/web-login/:id'],
            lazy: page(() => import('../features/auth/pages/web-login-page'), 'WebLoginPage'),
          },
          {
            path: '/artifactSearchResults',
            handle: HANDLES['/artifactSearchResults'],
            lazy: page(() => import('../features/search/pages/search-results-page'), 'SearchResultsPage'),
          },
          { path: '/admin', handle: HANDLES['/admin'], element: <Navigate to="/admin/management/users" replace /> },
          {
            id: 'admin.repositories.list',
            path: '/admin/repositories',
            handle: HANDLES['/admin/repositories'],
            lazy: page(() => import('../features/repositories/pages/repositories-page'), 'RepositoriesPage'),
          },
          {
            id: 'admin.repositories.new',
            path: '/admin/repositories/new',
            handle: HANDLES['/admin/repositories/new'],
            lazy: page(() => import('../features/repositories/pages/repository-form-page'), 'RepositoryFormPage'),
          },
          {
            id: 'admin.repositories.edit',
            path: '/admin/repositories/edit/:key',
            handle: HANDLES['/admin/repositories/edit/:key'],
            lazy: page(() => import('../features/repositories/pages/repository-form-page'), 'RepositoryFormPage'),
          },
          {
            id: 'admin.repositories.layouts',
            path: '/admin/repositories/layouts',
            handle: HANDLES['/admin/repositories/layouts'],
            lazy: page(() => import('../features/repositories/pages/layouts-page'), 'LayoutsPage'),
          },
          {
            path: '/admin/monitoring/storage-summary',
            handle: HANDLES['/admin/monitoring/storage-summary'],
            lazy: page(() => import('../features/storage/pages/storage-summary-page'), 'StorageSummaryPage'),
          },
          {
            path: '/admin/artifactory/list',
            handle: HANDLES['/admin/artifactory/list'],
            lazy: page(() => import('../features/admin-menu/pages/admin-menu-page'), 'AdminMenuPage'),
          },
          ...(['', '/new', '/edit/:name'] as const).map((suffix) => ({
            id: `admin.management.users${suffix ? `.${suffix.split('/')[1]}` : ''}`,
            path: `/admin/management/users${suffix}`,
            handle: HANDLES[`/admin/management/users${suffix}`],
            lazy: page(() => import('../features/users/pages/users-page'), 'UsersPage'),
          })),
          ...(['', '/new', '/edit/:name'] as const).map((suffix) => ({
            id: `admin.management.groups${suffix ? `.${suffix.split('/')[1]}` : ''}`,
            path: `/admin/management/groups${suffix}`,
            handle: HANDLES[`/admin/management/groups${suffix}`],
            lazy: page(() => import('../features/groups/pages/groups-page'), 'GroupsPage'),
          })),
          {
            id: 'admin.management.permissions',
            path: '/admin/management/permissions',
            handle: HANDLES['/admin/management/permissions'],
            lazy: page(() => import('../features/permissions/pages/permissions-page'), 'PermissionsPage'),
          },
          {
            id: 'admin.management.permissions.new',
            path: '/admin/management/permissions/new',
            handle: HANDLES['/admin/management/permissions/new'],
            lazy: page(() => import('../features/permissions/pages/permission-form-page'), 'PermissionFormPage'),
          },
          {
            id: 'admin.management.permissions.edit',
            path: '/admin/management/permissions/edit/:name',
            handle: HANDLES['/admin/management/permissions/edit/:name'],
            lazy: page(() => import('../features/permissions/pages/permission-form-page'), 'PermissionFormPage'),
          },
          {
            path: '/admin/management/access_tokens',
            handle: HANDLES['/admin/management/access_tokens'],
            lazy: page(() => import('../features/profile/pages/access-tokens-page'), 'AccessTokensPage'),
          },
          {
            path: '/admin/artifactory/security/general',
            handle: HANDLES['/admin/artifactory/security/general'],
            lazy: page(() => import('../features/security/pages/security-settings-page'), 'SecuritySettingsPage'),
          },
          {
            path: '/admin/configuration/mail',
            handle: HANDLES['/admin/configuration/mail'],
            lazy: page(() => import('../features/mail/pages/mail-settings-page'), 'MailSettingsPage'),
          },
          {
            path: '/admin/configuration/webhooks',
            handle: HANDLES['/admin/configuration/webhooks'],
            lazy: page(() => import('../features/webhooks/pages/webhooks-page'), 'WebhooksPage'),
          },
          {
            path: '/admin/configuration/webhooks/new',
            handle: HANDLES['/admin/configuration/webhooks/new'],
            lazy: page(() => import('../features/webhooks/pages/webhook-form-page'), 'WebhookFormPage'),
          },
          {
            path: '/admin/configuration/webhooks/edit/:webhookName',
            handle: HANDLES['/admin/configuration/webhooks/edit/:webhookName'],
            lazy: page(() => import('../features/webhooks/pages/webhook-form-page'), 'WebhookFormPage'),
          },
          {
            path: '/admin/configuration/webhooks/:webhookName/deliveries',
            handle: HANDLES['/admin/configuration/webhooks/:webhookName/deliveries'],
            lazy: page(() => import('../features/webhooks/pages/webhook-deliveries-page'), 'WebhookDeliveriesPage'),
          },
          {
            path: '/admin/monitoring/audit_trail',
            handle: HANDLES['/admin/monitoring/audit_trail'],
            lazy: page(() => import('../features/audit/pages/audit-trail-page'), 'AuditTrailPage'),
          },
          {
            path: '/admin/projects',
            handle: HANDLES['/admin/projects'],
            lazy: page(() => import('../features/projects/pages/projects-page'), 'ProjectsPage'),
          },
          {
            path: '/projects/:key/:section?',
            handle: HANDLES['/projects/:key/:section?'],
            lazy: page(() => import('../features/projects/pages/project-settings-page'), 'ProjectSettingsPage'),
          },
          {
            path: '/profile',
            handle: HANDLES['/profile'],
            lazy: page(() => import('../features/profile/pages/profile-page'), 'ProfilePage'),
          },
          {
            path: '/admin/artifactory/services/retention',
            element: <Navigate to="/admin/artifactory/services/retention/policies" replace />,
          },
          {
            path: '/admin/artifactory/services/retention/policies',
            handle: HANDLES['/admin/artifactory/services/retention/policies'],
            lazy: page(() => import('../features/retention/pages/retention-policies-page'), 'RetentionPoliciesPage'),
          },
          {
            path: '/admin/artifactory/services/retention/edit/:id?',
            handle: HANDLES['/admin/artifactory/services/retention/edit/:id?'],
            lazy: page(() => import('../features/retention/pages/policy-editor-page'), 'PolicyEditorPage'),
          },
          {
            path: '/admin/artifactory/services/retention/cold_storage_monitoring',
            handle: HANDLES['/admin/artifactory/services/retention/cold_storage_monitoring'],
            lazy: page(() => import('../features/retention/pages/cold-storage-page'), 'ColdStoragePage'),
          },
          {
            path: '/artifactoryRetention/search',
            handle: HANDLES['/artifactoryRetention/search'],
            lazy: page(() => import('../features/retention/pages/archive-search-page'), 'ArchiveSearchPage'),
          },
          {
            path: '/admin/configuration/general',
            handle: HANDLES['/admin/configuration/general'],
            lazy: page(() => import('../features/settings/pages/general-settings-page'), 'GeneralSettingsPage'),
          },
          {
            path: '/admin/proxies/configuration',
            element: <Navigate to="/admin/proxies/configuration/list" replace />,
          },
          {
            path: '/admin/proxies/configuration/list',
            handle: HANDLES['/admin/proxies/configuration/list'],
            lazy: page(() => import('../features/settings/pages/proxies-page'), 'ProxiesPage'),
          },
          {
            path: '/admin/proxies/configuration/new',
            handle: HANDLES['/admin/proxies/configuration/new'],
            lazy: page(() => import('../features/settings/pages/proxy-form-page'), 'ProxyFormPage'),
          },
          {
            path: '/admin/proxies/configuration/edit/:proxyName',
            handle: HANDLES['/admin/proxies/configuration/edit/:proxyName'],
            lazy: page(() => import('../features/settings/pages/proxy-form-page'), 'ProxyFormPage'),
          },
          {
            path: '/quick-setup',
            handle: HANDLES['/quick-setup'],
            lazy: page(() => import('../features/onboarding/pages/quick-setup-page'), 'QuickSetupPage'),
          },
          {
            path: '/admin/security-and-compliance-teaser',
            handle: HANDLES['/admin/security-and-compliance-teaser'],
            lazy: page(() => import('../features/help/pages/teaser-pages'), 'SecurityTeaserPage'),
          },
          {
            path: '/admin/pipelines-teaser',
            handle: HANDLES['/admin/pipelines-teaser'],
            lazy: page(() => import('../features/help/pages/teaser-pages'), 'PipelinesTeaserPage'),
          },
          {
            // the PDN Server's page: the network's teaser until this deployment runs one
            path: '/admin/monitoring/pdn',
            handle: HANDLES['/admin/monitoring/pdn'],
            lazy: page(() => import('../features/help/pages/teaser-pages'), 'PdnTeaserPage'),
          },
          {
            path: '/pipelinesSearchResults',
            handle: HANDLES['/pipelinesSearchResults'],
            lazy: page(() => import('../features/help/pages/teaser-pages'), 'PipelinesTeaserPage'),
          },
          {
            path: '/admin/pdn-teaser',
            handle: HANDLES['/admin/pdn-teaser'],
            lazy: page(() => import('../features/help/pages/teaser-pages'), 'PdnTeaserPage'),
          },
          {
            path: '/education-center',
            handle: HANDLES['/education-center'],
            lazy: page(() => import('../features/help/pages/education-center-page'), 'EducationCenterPage'),
          },
          {
            path: '/template',
            handle: HANDLES['/template'],
            lazy: page(() => import('../features/playground/pages/template-page'), 'TemplatePage'),
          },
          {
            path: '/demo',
            handle: HANDLES['/demo'],
            lazy: page(() => import('../features/playground/pages/demo-pages'), 'DemoLayout'),
            children: [
              { index: true, element: <Navigate to="/demo/tree" replace /> },
              { path: 'tree', lazy: page(() => import('../features/playground/pages/demo-pages'), 'DemoTreePage') },
              { path: 'typescript', element: <Navigate to="/demo/typescript/greeting" replace /> },
              {
                path: 'typescript/greeting',
                lazy: page(() => import('../features/playground/pages/demo-pages'), 'DemoGreetingPage'),
              },
              {
                path: 'multi-mfe-mounting-container',
                lazy: page(() => import('../features/playground/pages/demo-pages'), 'DemoMountingContainerPage'),
              },
            ],
          },
          {
            path: '/admin/mission_control/platform_units',
            handle: HANDLES['/admin/mission_control/platform_units'],
            lazy: page(() => import('../features/deployments/pages/platform-units-page'), 'PlatformUnitsPage'),
          },
          {
            path: '/admin/mission_control/topology/:id?',
            handle: HANDLES['/admin/mission_control/topology/:id?'],
            lazy: page(() => import('../features/topology/pages/topology-page'), 'TopologyPage'),
          },
          {
            path: '/admin/mission_control/access_federation',
            handle: HANDLES['/admin/mission_control/access_federation'],
            lazy: page(() => import('../features/federation/pages/access-federation-page'), 'AccessFederationPage'),
          },
          ...(['mesh', 'star', 'star/:federationId'] as const).map((sub) => ({
            path: `/admin/mission_control/access_federation/${sub}`,
            handle: HANDLES[`/admin/mission_control/access_federation/${sub}`],
            lazy: page(() => import('../features/federation/pages/federation-wizard-page'), 'FederationWizardPage'),
          })),
          {
            path: '/admin/mission_control/replications/:jpuID?',
            handle: HANDLES['/admin/mission_control/replications/:jpuID?'],
            lazy: page(() => import('../features/replications/pages/replications-page'), 'ReplicationsPage'),
          },
          {
            // the deployments bound to this one are its registrations
            path: '/admin/mission_control/deployment_bindings',
            handle: HANDLES['/admin/mission_control/deployment_bindings'],
            lazy: page(() => import('../features/deployments/pages/platform-units-page'), 'PlatformUnitsPage'),
          },
          {
            path: '/admin/mission_control/platform_units/add',
            handle: HANDLES['/admin/mission_control/platform_units/add'],
            lazy: page(() => import('../features/deployments/pages/platform-unit-form-page'), 'PlatformUnitFormPage'),
          },
          {
            path: '/admin/mission_control/platform_units/:id',
            handle: HANDLES['/admin/mission_control/platform_units/:id'],
            lazy: page(() => import('../features/deployments/pages/platform-unit-form-page'), 'PlatformUnitFormPage'),
          },
          {
            path: '/admin/security/authentication-providers/:provider?',
            handle: HANDLES['/admin/security/authentication-providers/:provider?'],
            lazy: page(
              () => import('../features/providers/pages/authentication-providers-page'),
              'AuthenticationProvidersPage',
            ),
          },
          {
            path: '/admin/artifactory/security/keys_management/:label?',
            handle: HANDLES['/admin/artifactory/security/keys_management/:label?'],
            lazy: page(() => import('../features/keys/pages/keys-management-page'), 'KeysManagementPage'),
          },
          {
            path: '/admin/artifactory/security/signing_keys',
            element: <Navigate to="/admin/artifactory/security/keys_management/signing-keys" replace />,
          },
          {
            path: '/admin/artifactory/security/certificates',
            element: <Navigate to="/admin/artifactory/security/keys_management/certificates" replace />,
          },
          {
            path: '/admin/artifactory/security/trusted_keys',
            element: <Navigate to="/admin/artifactory/security/keys_management/public-keys" replace />,
          },
          {
            path: '/admin/artifactory/security/ssh_server',
            element: <Navigate to="/admin/artifactory/security/keys_management/ssh-server" replace />,
          },
          {
            path: '/admin/artifactory/security/rsa_keys',
            element: <Navigate to="/admin/artifactory/security/keys_management/gpg-rsa-keys" replace />,
          },
          {
            path: '/admin/configuration/backups',
            handle: HANDLES['/admin/configuration/backups'],
            lazy: page(() => import('../features/backup/pages/backups-page'), 'BackupsPage'),
          },
          {
            path: '/admin/support-zone',
            handle: HANDLES['/admin/support-zone'],
            lazy: page(() => import('../features/support/pages/support-zone-page'), 'SupportZonePage'),
          },
          {
            path: '/admin/monitoring/system_logs',
            handle: HANDLES['/admin/monitoring/system_logs'],
            lazy: page(() => import('../features/logs/pages/system-logs-page'), 'SystemLogsPage'),
          },
          {
            path: '/admin/monitoring/service-status',
            handle: HANDLES['/admin/monitoring/service-status'],
            lazy: page(() => import('../features/system/pages/service-status-page'), 'ServiceStatusPage'),
          },
          {
            path: '/admin/license_management/license_buckets',
            handle: HANDLES['/admin/license_management/license_buckets'],
            lazy: page(() => import('../features/license-buckets/pages/license-buckets-page'), 'LicenseBucketsPage'),
          },
          {
            path: '/admin/license_management/license_buckets/add',
            handle: HANDLES['/admin/license_management/license_buckets/add'],
            lazy: page(
              () => import('../features/license-buckets/pages/add-license-bucket-page'),
              'AddLicenseBucketPage',
            ),
          },
          {
            path: '/admin/license_management/license_buckets/attach/:bucketId',
            handle: HANDLES['/admin/license_management/license_buckets/attach/:bucketId'],
            lazy: page(() => import('../features/license-buckets/pages/attach-license-page'), 'AttachLicensePage'),
          },
          {
            path: '/admin/license_management/license_buckets/report/:bucketId',
            handle: HANDLES['/admin/license_management/license_buckets/report/:bucketId'],
            lazy: page(() => import('../features/license-buckets/pages/bucket-report-page'), 'BucketReportPage'),
          },
          {
            path: '/admin/license_management/licenses',
            handle: HANDLES['/admin/license_management/licenses'],
            lazy: page(() => import('../features/license/pages/licenses-page'), 'LicensesPage'),
          },
          // a sub-application's pages (Pipelines, Distribution, Xray …) whose service is not installed:
          // in the console's frame, with its header and menu and a way back
          ...SUB_APPLICATION_PREFIXES.flatMap((prefix) => [prefix, `${prefix}/*`]).map((path) => ({
            path,
            handle: SERVICE_NOT_FOUND_HANDLES[path],
            lazy: page(() => import('../features/errors/pages/error-pages'), 'ServiceNotFoundPage'),
          })),
        ],
      },
      { path: '*', handle: HANDLES['*'], lazy: page(() => import('./unknown-path'), 'UnknownPath') },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(ROUTES, { basename: '/ui' });
}
