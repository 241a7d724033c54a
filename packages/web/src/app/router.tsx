import { Button } from 'antd';
import { FullPageMessage } from '../components/full-page-message';
import { createBrowserRouter, Navigate, useRouteError, type RouteObject } from 'react-router';
import { CHUNK_LOAD_TIMEOUT_MS } from '@arca/contracts';
import type { RouteMeta } from './guards';
import { FullPageSpinner, Root } from './root';

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

const meta = (m: RouteMeta) => m;

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
        handle: meta({ public: true, title: 'Login' }),
        lazy: page(() => import('../features/auth/pages/login-page'), 'LoginPage'),
      },
      {
        id: 'otpLogin',
        path: '/login/otp-login',
        handle: meta({ public: true, title: 'Two-factor authentication' }),
        lazy: page(() => import('../features/auth/pages/otp-login-page'), 'OtpLoginPage'),
      },
      {
        id: 'mfaEnroll',
        path: '/login/mfa-enroll',
        handle: meta({ public: true, title: 'Set up two-factor authentication' }),
        lazy: page(() => import('../features/auth/pages/mfa-enroll-page'), 'MfaEnrollPage'),
      },
      {
        id: 'forgotPassword',
        path: '/login/forgot-password',
        handle: meta({ public: true, title: 'Forgot password' }),
        lazy: page(() => import('../features/auth/pages/forgot-password-page'), 'ForgotPasswordPage'),
      },
      {
        id: 'resetPassword',
        path: '/login/reset-password',
        handle: meta({ public: true, title: 'Reset password' }),
        lazy: page(() => import('../features/auth/pages/reset-password-page'), 'ResetPasswordPage'),
      },
      {
        path: '/auth/reset-password',
        handle: meta({ public: true }),
        lazy: page(() => import('../features/auth/pages/reset-password-page'), 'ResetPasswordPage'),
      },
      {
        id: 'changePassword',
        path: '/login/change-password/:userName?',
        handle: meta({ public: true, title: 'Change password' }),
        lazy: page(() => import('../features/auth/pages/change-password-page'), 'ChangePasswordPage'),
      },
      {
        id: 'invitation',
        path: '/login/invitation',
        handle: meta({ public: true, title: 'Invitation' }),
        lazy: page(() => import('../features/auth/pages/invitation-page'), 'InvitationPage'),
      },
      { path: '/auth', handle: meta({ public: true }), element: <Navigate to="/login" replace /> },
      {
        path: '/logout',
        handle: meta({ public: true }),
        lazy: page(() => import('../features/auth/pages/logout-route'), 'LogoutRoute'),
      },
      {
        path: '/404',
        handle: meta({ public: true }),
        lazy: page(() => import('../features/errors/pages/error-pages'), 'NotFoundPage'),
      },
      {
        path: '/406/:requestId',
        handle: meta({ public: true }),
        lazy: page(() => import('../features/errors/pages/error-pages'), 'NotAcceptablePage'),
      },
      {
        path: '/500',
        handle: meta({ public: true }),
        lazy: page(() => import('../features/errors/pages/error-pages'), 'ServerErrorPage'),
      },
      {
        path: '/authorization',
        handle: meta({ public: true }),
        lazy: page(() => import('../features/errors/pages/error-pages'), 'NotAuthorizedPage'),
      },
      {
        lazy: page(() => import('./layout/app-layout'), 'AppLayout'),
        children: [
          {
            path: '/overview',
            handle: meta({
              title: 'Overview',
              menuKey: 'overview',
              menu: {
                key: 'overview',
                minRank: 1,
                label: 'Overview',
                sidebar: 'application',
                description: 'Licence, version and health of this deployment at a glance',
              },
            }),
            lazy: page(() => import('../features/overview/pages/overview-page'), 'OverviewPage'),
          },
          {
            path: '/repos/tree/General/*',
            handle: meta({
              title: 'Artifacts',
              menuKey: 'artifacts',
              menu: {
                key: 'artifacts',
                label: 'Artifacts',
                sidebar: 'application',
                minRank: 1,
                description: 'Browse repositories, deploy and inspect files',
              },
            }),
            lazy: page(() => import('../features/artifacts/pages/tree-browser-page'), 'TreeBrowserPage'),
          },
          {
            path: '/packages/:packageId?/:versionId?',
            handle: meta({
              title: 'Packages',
              menuKey: 'packages',
              menu: {
                key: 'packages',
                label: 'Packages',
                sidebar: 'application',
                minRank: 1,
                description: 'Every package with its versions, readme, dependencies and downloads',
              },
            }),
            lazy: page(() => import('../features/packages/pages/packages-page'), 'PackagesRoute'),
          },
          {
            path: '/builds/:name?/:number?',
            handle: meta({
              title: 'Builds',
              menuKey: 'builds',
              menu: {
                key: 'builds',
                label: 'Builds',
                sidebar: 'application',
                minRank: 1,
                description: 'Build runs CI tools published, with their artifacts, dependencies and promotions',
              },
            }),
            lazy: page(() => import('../features/builds/pages/builds-page'), 'BuildsRoute'),
          },
          {
            path: '/web-login/:id',
            handle: meta({ title: 'Approve a sign-in' }),
            lazy: page(() => import('../features/auth/pages/web-login-page'), 'WebLoginPage'),
          },
          {
            path: '/artifactSearchResults',
            handle: meta({ title: 'Search results', menuKey: 'artifacts' }),
            lazy: page(() => import('../features/search/pages/search-results-page'), 'SearchResultsPage'),
          },
          { path: '/admin', handle: meta({ admin: true }), element: <Navigate to="/admin/management/users" replace /> },
          {
            id: 'admin.repositories.list',
            path: '/admin/repositories',
            handle: meta({
              admin: true,
              menuKey: 'repositories',
              menu: {
                key: 'repositories',
                label: 'Repositories',
                sidebar: 'administration',
                group: 'Repositories',
                description: 'Local, remote and virtual repositories of every package type',
                adminOnly: true,
                minRank: 1,
                service: 'artifactory',
              },
            }),
            lazy: page(() => import('../features/repositories/pages/repositories-page'), 'RepositoriesPage'),
          },
          {
            id: 'admin.repositories.new',
            path: '/admin/repositories/new',
            handle: meta({ admin: true, menuKey: 'repositories' }),
            lazy: page(() => import('../features/repositories/pages/repository-form-page'), 'RepositoryFormPage'),
          },
          {
            id: 'admin.repositories.edit',
            path: '/admin/repositories/edit/:key',
            handle: meta({ admin: true, menuKey: 'repositories' }),
            lazy: page(() => import('../features/repositories/pages/repository-form-page'), 'RepositoryFormPage'),
          },
          {
            id: 'admin.repositories.layouts',
            path: '/admin/repositories/layouts',
            handle: meta({
              admin: true,
              menuKey: 'layouts',
              menu: {
                key: 'layouts',
                label: 'Layouts',
                sidebar: 'administration',
                group: 'Repositories',
                description: 'How each package type lays out its paths',
                adminOnly: true,
                minRank: 1,
              },
            }),
            lazy: page(() => import('../features/repositories/pages/layouts-page'), 'LayoutsPage'),
          },
          {
            path: '/admin/monitoring/storage-summary',
            handle: meta({
              admin: true,
              menuKey: 'storage-summary',
              menu: {
                key: 'storage-summary',
                label: 'Storage Summary',
                sidebar: 'administration',
                group: 'Monitoring',
                description: 'Used space per repository and the deduplication gain',
                adminOnly: true,
                minRank: 1,
              },
            }),
            lazy: page(() => import('../features/storage/pages/storage-summary-page'), 'StorageSummaryPage'),
          },
          {
            path: '/admin/artifactory/list',
            handle: meta({ admin: true, title: 'Administration' }),
            lazy: page(() => import('../features/admin-menu/pages/admin-menu-page'), 'AdminMenuPage'),
          },
          ...(['', '/new', '/edit/:name'] as const).map((suffix) => ({
            id: `admin.management.users${suffix ? `.${suffix.split('/')[1]}` : ''}`,
            path: `/admin/management/users${suffix}`,
            handle: meta({
              admin: true,
              menuKey: 'users',
              // the list is the menu's page; its new and edit forms belong to it
              ...(suffix === '' && {
                menu: {
                  key: 'users',
                  minRank: 1,
                  label: 'Users',
                  sidebar: 'administration',
                  group: 'User Management',
                  description: 'Who can sign in, and their last login',
                  adminOnly: true,
                  service: 'access',
                },
              }),
            }),
            lazy: page(() => import('../features/users/pages/users-page'), 'UsersPage'),
          })),
          ...(['', '/new', '/edit/:name'] as const).map((suffix) => ({
            id: `admin.management.groups${suffix ? `.${suffix.split('/')[1]}` : ''}`,
            path: `/admin/management/groups${suffix}`,
            handle: meta({
              admin: true,
              menuKey: 'groups',
              // the list is the menu's page; its new and edit forms belong to it
              ...(suffix === '' && {
                menu: {
                  key: 'groups',
                  minRank: 1,
                  label: 'Groups',
                  sidebar: 'administration',
                  group: 'User Management',
                  description: 'Give rights to many users at once',
                  adminOnly: true,
                  service: 'access',
                },
              }),
            }),
            lazy: page(() => import('../features/groups/pages/groups-page'), 'GroupsPage'),
          })),
          {
            id: 'admin.management.permissions',
            path: '/admin/management/permissions',
            handle: meta({
              admin: true,
              menuKey: 'permissions',
              menu: {
                key: 'permissions',
                minRank: 1,
                label: 'Permissions',
                sidebar: 'administration',
                group: 'User Management',
                description: 'Who may read, deploy or delete in which repositories and paths',
                adminOnly: true,
                service: 'access',
              },
            }),
            lazy: page(() => import('../features/permissions/pages/permissions-page'), 'PermissionsPage'),
          },
          {
            id: 'admin.management.permissions.new',
            path: '/admin/management/permissions/new',
            handle: meta({ admin: true, menuKey: 'permissions', title: 'New Permission' }),
            lazy: page(() => import('../features/permissions/pages/permission-form-page'), 'PermissionFormPage'),
          },
          {
            id: 'admin.management.permissions.edit',
            path: '/admin/management/permissions/edit/:name',
            handle: meta({ admin: true, menuKey: 'permissions', title: 'Edit Permission' }),
            lazy: page(() => import('../features/permissions/pages/permission-form-page'), 'PermissionFormPage'),
          },
          {
            path: '/admin/management/access_tokens',
            handle: meta({
              admin: true,
              menuKey: 'access-tokens',
              menu: {
                key: 'access-tokens',
                minRank: 1,
                label: 'Access Tokens',
                sidebar: 'administration',
                group: 'User Management',
                description: 'Review and revoke the tokens of every user',
                adminOnly: true,
                service: 'access',
              },
            }),
            lazy: page(() => import('../features/profile/pages/access-tokens-page'), 'AccessTokensPage'),
          },
          {
            path: '/admin/artifactory/security/general',
            handle: meta({
              admin: true,
              menuKey: 'security-general',
              menu: {
                key: 'security-general',
                minRank: 1,
                label: 'Security Configuration',
                sidebar: 'administration',
                group: 'Security',
                description: 'Anonymous access, password policy, lockout and session timeout',
                adminOnly: true,
              },
            }),
            lazy: page(() => import('../features/security/pages/security-settings-page'), 'SecuritySettingsPage'),
          },
          {
            path: '/admin/configuration/mail',
            handle: meta({
              admin: true,
              menuKey: 'mail',
              menu: {
                key: 'mail',
                minRank: 1,
                label: 'Mail',
                sidebar: 'administration',
                group: 'Configuration',
                description: 'The mail server for password resets and invitations',
                adminOnly: true,
              },
            }),
            lazy: page(() => import('../features/mail/pages/mail-settings-page'), 'MailSettingsPage'),
          },
          {
            path: '/admin/monitoring/audit_trail',
            handle: meta({
              admin: true,
              menuKey: 'audit-trail',
              menu: {
                key: 'audit-trail',
                minRank: 1,
                label: 'Audit Trail',
                sidebar: 'administration',
                group: 'Monitoring',
                description: 'Sign-ins and every change to users, groups, permissions and tokens',
                adminOnly: true,
              },
            }),
            lazy: page(() => import('../features/audit/pages/audit-trail-page'), 'AuditTrailPage'),
          },
          {
            path: '/admin/projects',
            handle: meta({
              admin: true,
              menuKey: 'projects',
              menu: {
                key: 'projects',
                minRank: 1,
                label: 'Projects',
                sidebar: 'administration',
                group: 'User Management',
                description: 'Repositories and members grouped by project; project admins manage their own',
                adminOnly: true,
                service: 'access',
              },
            }),
            lazy: page(() => import('../features/projects/pages/projects-page'), 'ProjectsPage'),
          },
          {
            path: '/projects/:key/:section?',
            handle: meta({ title: 'Project Settings' }),
            lazy: page(() => import('../features/projects/pages/project-settings-page'), 'ProjectSettingsPage'),
          },
          {
            path: '/profile',
            handle: meta({ title: 'Edit Profile' }),
            lazy: page(() => import('../features/profile/pages/profile-page'), 'ProfilePage'),
          },
          {
            path: '/admin/monitoring/service-status',
            handle: meta({
              admin: true,
              menuKey: 'service-status',
              menu: {
                key: 'service-status',
                minRank: 1,
                label: 'Service Status',
                sidebar: 'administration',
                group: 'Monitoring',
                description: 'Nodes of this deployment, their services and heartbeats',
                adminOnly: true,
              },
            }),
            lazy: page(() => import('../features/system/pages/service-status-page'), 'ServiceStatusPage'),
          },
          {
            path: '/admin/license_management/licenses',
            handle: meta({
              admin: true,
              menuKey: 'licenses',
              menu: {
                key: 'licenses',
                label: 'Licenses',
                sidebar: 'administration',
                group: 'License Management',
                description: 'The installed licence, and installing a new key',
                adminOnly: true,
              },
            }),
            lazy: page(() => import('../features/license/pages/licenses-page'), 'LicensesPage'),
          },
        ],
      },
      { path: '*', handle: meta({ public: true }), lazy: page(() => import('./unknown-path'), 'UnknownPath') },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(ROUTES, { basename: '/ui' });
}
