/** Where a menu entry lives. */
export type Sidebar = 'application' | 'administration';

/** One entry of the console menus: a page that exists, and what it needs to be shown. */
export interface MenuItem {
  key: string;
  label: string;
  path: string;
  sidebar: Sidebar;
  /** Group heading in the Administration sidebar and on the admin menu page. */
  group?: string;
  description?: string;
  adminOnly?: boolean;
  /** Lowest licence rank that may use the page. */
  minRank?: number;
  /** A service that must be running. */
  service?: string;
  /** A feature flag of `system/featuresConfig` that must be on. */
  feature?: string;
  /** Only on cloud; hidden on premises and on dedicated cloud. */
  cloudOnly?: boolean;
}

export interface MenuContext {
  admin: boolean;
  licenseRank: number;
  services: Record<string, boolean>;
  features: Record<string, boolean>;
  cloud: boolean;
  dedicatedCloud: boolean;
}

/** visible: usable; disabled: shown greyed with the reason; hidden: not shown at all. */
export type MenuItemState =
  { state: 'visible' } | { state: 'disabled'; reason: string } | { state: 'hidden'; reason: string };

export const EDITION_FOR_RANK: Record<number, string> = {
  1: 'a valid',
  2: 'a Pro',
  3: 'a Trial',
  4: 'an Enterprise',
  5: 'an Enterprise+',
};

/**
 * The state of a menu entry for a user: admin-only entries are hidden from others, cloud-only
 * entries on premises and on dedicated cloud; a missing service, feature or licence rank shows the
 * entry disabled with the reason.
 */
export function menuItemState(item: MenuItem, ctx: MenuContext): MenuItemState {
  if (item.adminOnly && !ctx.admin) return { state: 'hidden', reason: 'Needs administrator rights' };
  if (item.cloudOnly && (!ctx.cloud || ctx.dedicatedCloud))
    return { state: 'hidden', reason: 'Available on cloud only' };
  if (item.service && !ctx.services[item.service]) {
    return { state: 'disabled', reason: `The ${item.service} service is not running on this deployment` };
  }
  if (item.feature && !ctx.features[item.feature]) {
    return { state: 'disabled', reason: 'This feature is not enabled on this deployment' };
  }
  if (item.minRank !== undefined && ctx.licenseRank < item.minRank) {
    return { state: 'disabled', reason: `Needs ${EDITION_FOR_RANK[item.minRank] ?? 'a higher'} licence` };
  }
  return { state: 'visible' };
}

/** Entries of a sidebar with their states, hidden ones left out. */
export function sidebarEntries(items: MenuItem[], sidebar: Sidebar, ctx: MenuContext) {
  return items
    .filter((item) => item.sidebar === sidebar)
    .map((item) => ({ item, status: menuItemState(item, ctx) }))
    .filter((entry) => entry.status.state !== 'hidden');
}

/** Groups entries by their `group`, keeping first-seen order. */
export function groupEntries<T extends { item: MenuItem }>(entries: T[]): { group: string; entries: T[] }[] {
  const groups: { group: string; entries: T[] }[] = [];
  for (const entry of entries) {
    const name = entry.item.group ?? 'General';
    let group = groups.find((g) => g.group === name);
    if (!group) groups.push((group = { group: name, entries: [] }));
    group.entries.push(entry);
  }
  return groups;
}

/** The console's menu: every entry is a page that exists. */
export const MENU: MenuItem[] = [
  {
    key: 'overview',
    minRank: 1,
    label: 'Overview',
    path: '/overview',
    sidebar: 'application',
    description: 'Licence, version and health of this deployment at a glance',
  },
  {
    key: 'artifacts',
    label: 'Artifacts',
    path: '/repos/tree/General',
    sidebar: 'application',
    minRank: 1,
    description: 'Browse repositories, deploy and inspect files',
  },
  {
    key: 'repositories',
    label: 'Repositories',
    path: '/admin/repositories',
    sidebar: 'administration',
    group: 'Repositories',
    description: 'Local, remote and virtual repositories of every package type',
    adminOnly: true,
    minRank: 1,
    service: 'artifactory',
  },
  {
    key: 'layouts',
    label: 'Layouts',
    path: '/admin/repositories/layouts',
    sidebar: 'administration',
    group: 'Repositories',
    description: 'How each package type lays out its paths',
    adminOnly: true,
    minRank: 1,
  },
  {
    key: 'users',
    minRank: 1,
    label: 'Users',
    path: '/admin/management/users',
    sidebar: 'administration',
    group: 'User Management',
    description: 'Who can sign in, and their last login',
    adminOnly: true,
    service: 'access',
  },
  {
    key: 'projects',
    minRank: 1,
    label: 'Projects',
    path: '/admin/projects',
    sidebar: 'administration',
    group: 'User Management',
    description: 'Repositories and members grouped by project; project admins manage their own',
    adminOnly: true,
    service: 'access',
  },
  {
    key: 'groups',
    minRank: 1,
    label: 'Groups',
    path: '/admin/management/groups',
    sidebar: 'administration',
    group: 'User Management',
    description: 'Give rights to many users at once',
    adminOnly: true,
    service: 'access',
  },
  {
    key: 'permissions',
    minRank: 1,
    label: 'Permissions',
    path: '/admin/management/permissions',
    sidebar: 'administration',
    group: 'User Management',
    description: 'Who may read, deploy or delete in which repositories and paths',
    adminOnly: true,
    service: 'access',
  },
  {
    key: 'access-tokens',
    minRank: 1,
    label: 'Access Tokens',
    path: '/admin/management/access_tokens',
    sidebar: 'administration',
    group: 'User Management',
    description: 'Review and revoke the tokens of every user',
    adminOnly: true,
    service: 'access',
  },
  {
    key: 'security-general',
    minRank: 1,
    label: 'Security Configuration',
    path: '/admin/artifactory/security/general',
    sidebar: 'administration',
    group: 'Security',
    description: 'Anonymous access, password policy, lockout and session timeout',
    adminOnly: true,
  },
  {
    key: 'mail',
    minRank: 1,
    label: 'Mail',
    path: '/admin/configuration/mail',
    sidebar: 'administration',
    group: 'Configuration',
    description: 'The mail server for password resets and invitations',
    adminOnly: true,
  },
  {
    key: 'audit-trail',
    minRank: 1,
    label: 'Audit Trail',
    path: '/admin/monitoring/audit_trail',
    sidebar: 'administration',
    group: 'Monitoring',
    description: 'Sign-ins and every change to users, groups, permissions and tokens',
    adminOnly: true,
  },
  {
    key: 'service-status',
    minRank: 1,
    label: 'Service Status',
    path: '/admin/monitoring/service-status',
    sidebar: 'administration',
    group: 'Monitoring',
    description: 'Nodes of this deployment, their services and heartbeats',
    adminOnly: true,
  },
  {
    key: 'storage-summary',
    label: 'Storage Summary',
    path: '/admin/monitoring/storage-summary',
    sidebar: 'administration',
    group: 'Monitoring',
    description: 'Used space per repository and the deduplication gain',
    adminOnly: true,
    minRank: 1,
  },
  {
    key: 'licenses',
    label: 'Licenses',
    path: '/admin/license_management/licenses',
    sidebar: 'administration',
    group: 'License Management',
    description: 'The installed licence, and installing a new key',
    adminOnly: true,
  },
];

/** The entry whose page a path belongs to. */
export function menuItemForPath(path: string, items: MenuItem[] = MENU): MenuItem | undefined {
  // the longest matching path wins (/admin/repositories/layouts over /admin/repositories)
  return items
    .filter((item) => path === item.path || path.startsWith(`${item.path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0];
}
