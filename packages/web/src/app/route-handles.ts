import type { MenuEntry } from '../lib/menu';

/** What a route declares: its title, whether the guards apply, and the menu entry it is the page of. */
export interface RouteMeta {
  /** Page title; the document title is 'title - server name'. */
  title?: string;
  /** Login, logout and error pages: the guards do not apply (skipLicenseCheck). */
  public?: boolean;
  /** Administration pages. */
  admin?: boolean;
  /** The menu entry this page belongs to. */
  menuKey?: string;
  /** The menu entry this route is the page of (its path is the route's). */
  menu?: MenuEntry;
}

/**
 * The route table's data, by path (spec part 1 §2): what each page needs and its menu entry, in
 * the order the menus list them. The route table (`router.tsx`) hangs its lazy pages on these;
 * the menus and the guards read them without importing a single component.
 */
export const HANDLES = {
  '/login': { public: true, title: 'Login' },
  '/login/otp-login': { public: true, title: 'Two-factor authentication' },
  '/login/mfa-enroll': { public: true, title: 'Set up two-factor authentication' },
  '/login/forgot-password': { public: true, title: 'Forgot password' },
  '/login/reset-password': { public: true, title: 'Reset password' },
  '/auth/reset-password': { public: true },
  '/login/change-password/:userName?': { public: true, title: 'Change password' },
  '/login/invitation': { public: true, title: 'Invitation' },
  '/auth': { public: true },
  '/logout': { public: true },
  '/404': { public: true },
  '/406/:requestId': { public: true },
  '/500': { public: true },
  '/authorization': { public: true },
  '/overview': {
    title: 'Overview',
    menuKey: 'overview',
    menu: {
      key: 'overview',
      minRank: 1,
      label: 'Overview',
      sidebar: 'application',
      description: 'Licence, version and health of this deployment at a glance',
    },
  },
  '/repos/tree/General/*': {
    title: 'Artifacts',
    menuKey: 'artifacts',
    menu: {
      key: 'artifacts',
      label: 'Artifacts',
      sidebar: 'application',
      minRank: 1,
      description: 'Browse repositories, deploy and inspect files',
    },
  },
  '/packages/:packageId?/:versionId?': {
    title: 'Packages',
    menuKey: 'packages',
    menu: {
      key: 'packages',
      label: 'Packages',
      sidebar: 'application',
      minRank: 1,
      description: 'Every package with its versions, readme, dependencies and downloads',
    },
  },
  '/builds/:name?/:number?': {
    title: 'Builds',
    menuKey: 'builds',
    menu: {
      key: 'builds',
      label: 'Builds',
      sidebar: 'application',
      minRank: 1,
      description: 'Build runs CI tools published, with their artifacts, dependencies and promotions',
    },
  },
  '/web-login/:id': { title: 'Approve a sign-in' },
  '/artifactSearchResults': { title: 'Search results', menuKey: 'artifacts' },
  '/admin': { admin: true },
  '/admin/repositories': {
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
  },
  '/admin/repositories/new': { admin: true, menuKey: 'repositories' },
  '/admin/repositories/edit/:key': { admin: true, menuKey: 'repositories' },
  '/admin/repositories/layouts': {
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
  },
  '/admin/monitoring/storage-summary': {
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
  },
  '/admin/artifactory/list': { admin: true, title: 'Administration' },
  // the lists are the menu's pages; their new and edit forms belong to them
  '/admin/management/users': {
    admin: true,
    menuKey: 'users',
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
  },
  '/admin/management/users/new': { admin: true, menuKey: 'users' },
  '/admin/management/users/edit/:name': { admin: true, menuKey: 'users' },
  '/admin/management/groups': {
    admin: true,
    menuKey: 'groups',
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
  },
  '/admin/management/groups/new': { admin: true, menuKey: 'groups' },
  '/admin/management/groups/edit/:name': { admin: true, menuKey: 'groups' },
  '/admin/management/permissions': {
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
  },
  '/admin/management/permissions/new': { admin: true, menuKey: 'permissions', title: 'New Permission' },
  '/admin/management/permissions/edit/:name': { admin: true, menuKey: 'permissions', title: 'Edit Permission' },
  '/admin/management/access_tokens': {
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
  },
  '/admin/artifactory/security/general': {
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
  },
  '/admin/configuration/mail': {
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
  },
  '/admin/configuration/webhooks': {
    admin: true,
    menuKey: 'webhooks',
    menu: {
      key: 'webhooks',
      minRank: 1,
      label: 'Webhooks',
      sidebar: 'administration',
      group: 'Configuration',
      description: 'Send deploys, builds and changes to other systems as signed JSON requests',
      adminOnly: true,
    },
  },
  '/admin/configuration/webhooks/new': { admin: true, menuKey: 'webhooks', title: 'New Webhook' },
  '/admin/configuration/webhooks/edit/:webhookName': { admin: true, menuKey: 'webhooks', title: 'Edit Webhook' },
  '/admin/configuration/webhooks/:webhookName/deliveries': {
    admin: true,
    menuKey: 'webhooks',
    title: 'Webhook deliveries',
  },
  '/admin/monitoring/audit_trail': {
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
  },
  '/admin/projects': {
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
  },
  '/projects/:key/:section?': { title: 'Project Settings' },
  '/profile': { title: 'Edit Profile' },
  '/admin/artifactory/services/retention/policies': {
    admin: true,
    menuKey: 'retention',
    menu: {
      key: 'retention',
      minRank: 1,
      label: 'Retention Policies',
      sidebar: 'administration',
      group: 'Repositories',
      description: 'Move artifacts nobody uses any more to the cold store on a schedule; restore them in a click',
      adminOnly: true,
    },
  },
  '/admin/artifactory/services/retention/edit/:id?': { admin: true, menuKey: 'retention', title: 'Retention Policy' },
  '/admin/artifactory/services/retention/cold_storage_monitoring': {
    admin: true,
    menuKey: 'cold-storage',
    menu: {
      key: 'cold-storage',
      minRank: 1,
      label: 'Cold Storage',
      sidebar: 'administration',
      group: 'Monitoring',
      description: 'What the archive holds and how it grew',
      adminOnly: true,
    },
  },
  '/artifactoryRetention/search': { admin: true, menuKey: 'retention', title: 'Archive Search' },
  '/admin/configuration/backups': {
    admin: true,
    menuKey: 'backups',
    menu: {
      key: 'backups',
      minRank: 1,
      label: 'Backups',
      sidebar: 'administration',
      group: 'Configuration',
      description: 'Back the deployment up while it serves; the backups the backup folder holds',
      adminOnly: true,
    },
  },
  '/admin/support-zone': {
    admin: true,
    menuKey: 'support-zone',
    menu: {
      key: 'support-zone',
      minRank: 1,
      label: 'Support Zone',
      sidebar: 'administration',
      group: 'Monitoring',
      description: 'Support bundles: logs, configuration and system information in one zip',
      adminOnly: true,
    },
  },
  '/admin/monitoring/system_logs': {
    admin: true,
    menuKey: 'system-logs',
    menu: {
      key: 'system-logs',
      minRank: 1,
      label: 'System Logs',
      sidebar: 'administration',
      group: 'Monitoring',
      description: 'The live logs of every node: service, request and audit',
      adminOnly: true,
    },
  },
  '/admin/monitoring/service-status': {
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
  },
  '/admin/license_management/licenses': {
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
  },
  '*': { public: true },
} satisfies Record<string, RouteMeta>;
