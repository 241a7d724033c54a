/** Where a menu entry lives. */
export type Sidebar = 'application' | 'administration';

/** One entry of the console menus: a page that exists, and what it needs to be shown. */
export interface MenuItem {
  key: string;
  label: string;
  /** The page's path: the route's own, so that every path is written once (app/router.tsx). */
  path: string;
  sidebar: Sidebar;
  /** Group heading in the Administration sidebar and on the admin menu page. */
  group?: string;
  description?: string;
  adminOnly?: boolean;
  /** An administration entry also open to the holders of a security scanning role. */
  scanningRoles?: boolean;
  /** Lowest license rank that may use the page. */
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
  /** The user holds a security scanning role (policy viewer, policy manager, watch manager). */
  scanningRole?: boolean;
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
 * entries on premises and on dedicated cloud; a missing service, feature or license rank shows the
 * entry disabled with the reason.
 */
export function menuItemState(item: MenuItem, ctx: MenuContext): MenuItemState {
  if (item.adminOnly && !ctx.admin && !(item.scanningRoles && ctx.scanningRole))
    return { state: 'hidden', reason: 'Needs administrator rights' };
  if (item.cloudOnly && (!ctx.cloud || ctx.dedicatedCloud))
    return { state: 'hidden', reason: 'Available on cloud only' };
  if (item.service && !ctx.services[item.service]) {
    return { state: 'disabled', reason: `The ${item.service} service is not running on this deployment` };
  }
  if (item.feature && !ctx.features[item.feature]) {
    return { state: 'disabled', reason: 'This feature is not enabled on this deployment' };
  }
  if (item.minRank !== undefined && ctx.licenseRank < item.minRank) {
    return { state: 'disabled', reason: `Needs ${EDITION_FOR_RANK[item.minRank] ?? 'a higher'} license` };
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

/** The order of the Administration groups; a group not listed follows them. */
const GROUP_ORDER = [
  'Repositories',
  'User Management',
  'Security',
  'Configuration',
  'Monitoring',
  'License Management',
  'Platform Management',
  'Platform Services',
];
const groupRank = (name: string) => {
  const rank = GROUP_ORDER.indexOf(name);
  return rank < 0 ? GROUP_ORDER.length : rank;
};

/** Groups entries by their `group`, in the administration's group order, entries in their order. */
export function groupEntries<T extends { item: MenuItem }>(entries: T[]): { group: string; entries: T[] }[] {
  const groups: { group: string; entries: T[] }[] = [];
  for (const entry of entries) {
    const name = entry.item.group ?? 'General';
    let group = groups.find((g) => g.group === name);
    if (!group) groups.push((group = { group: name, entries: [] }));
    group.entries.push(entry);
  }
  return groups.sort((a, b) => groupRank(a.group) - groupRank(b.group));
}

/** A menu entry as a route declares it: everything but the path, which is the route's. */
export type MenuEntry = Omit<MenuItem, 'path'> & {
  /** Where the entry comes in its sidebar and group: the menus list entries by it, whichever feature declares them. */
  order?: number;
};

/** The entry whose page a path belongs to. */
export function menuItemForPath(path: string, items: MenuItem[]): MenuItem | undefined {
  // the longest matching path wins (/admin/repositories/layouts over /admin/repositories)
  return items
    .filter((item) => path === item.path || path.startsWith(`${item.path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0];
}
