import { ERROR_MESSAGES, holdsScanningRole, isAnonymousName, type UserData } from '@arca/contracts';
import { landingPath } from '../lib/landing';
import { menuItemState, type MenuContext, type MenuItem } from '../lib/menu';
import { menuItems } from './menu';
import type { RouteMeta } from './route-handles';

export type { RouteMeta };

/** What a route says about itself (React Router `handle`). */
export interface NavigationInput {
  pathname: string;
  search: string;
  hash: string;
  meta: RouteMeta;
  user: UserData;
  menu: MenuContext;
  items?: MenuItem[];
  /** An administrator of a deployment with nothing set up who has not seen Getting Started yet. */
  needsOnboarding?: boolean;
}

export type NavigationDecision =
  | { kind: 'continue' }
  /** Navigation does not happen: the user stays where they were (or goes to the start). */
  | { kind: 'cancel' }
  | {
      kind: 'redirect';
      to: string;
      /** Shown to the user where they land. */
      message?: string;
      /** Remember where the user wanted to go, for after login. */
      rememberPath?: string;
    };

export const QUICK_SETUP_PATH = '/quick-setup';
export const LICENSES_PATH = '/admin/license_management/licenses';
export const LOGIN_WITH_LOGOUT = '/login?logout=true';
const LEGACY_TREE = '/tree/General';
const TREE_ROOT = '/repos/tree/General/';

/** Rewrites a legacy artifact-browse link to /repos/tree/General/{path}; undefined when not legacy. */
export function rewriteLegacyLink(pathname: string, hash: string): string | undefined {
  const full = `${pathname}${hash}`;
  const at = full.indexOf(LEGACY_TREE);
  if (at < 0 || pathname.startsWith('/repos/tree/General')) return undefined;
  try {
    const rest = decodeURIComponent(full.slice(at + LEGACY_TREE.length)).replace(/^\/+/, '');
    if (rest.includes('..')) return TREE_ROOT;
    return TREE_ROOT + rest;
  } catch {
    return TREE_ROOT;
  }
}

/** The navigation guards in the order of spec part 1 §2. */
export function resolveNavigation(input: NavigationInput): NavigationDecision {
  const { pathname, search, hash, meta, user, menu } = input;
  if (meta.public) return { kind: 'continue' };
  // spec part 1 §2: /template and /demo are entered only when the tested-feature flag is supported
  if (meta.testedFeature && !menu.features.testedFeatures) return { kind: 'cancel' };

  const legacy = rewriteLegacyLink(pathname, hash);
  if (legacy !== undefined) return { kind: 'redirect', to: legacy };

  const anonymous = isAnonymousName(user.name);
  const here = `${pathname}${search}`;
  const entry = pathname === '/' || pathname === '/home';
  if (anonymous && user.disableUIAccess && user.anonAccessEnabled) {
    return { kind: 'redirect', to: '/login', rememberPath: entry ? undefined : here };
  }
  if (anonymous && !user.anonAccessEnabled) {
    return {
      kind: 'redirect',
      to: LOGIN_WITH_LOGOUT,
      message: entry ? undefined : ERROR_MESSAGES.notAuthorized,
      rememberPath: entry ? undefined : here,
    };
  }

  if (meta.admin && !user.admin && !(meta.scanningRoles && holdsScanningRole(user))) {
    return { kind: 'redirect', to: '/authorization', message: ERROR_MESSAGES.notAuthorized };
  }
  const item = meta.menuKey ? (input.items ?? menuItems()).find((i) => i.key === meta.menuKey) : undefined;
  // with no valid license at all, the license step below decides where to go
  if (item && meta.admin && menu.licenseRank > 0) {
    const status = menuItemState(item, menu);
    if (status.state !== 'visible') return { kind: 'redirect', to: '/authorization', message: status.reason };
  }

  if (menu.licenseRank === 0) {
    if (user.admin) return pathname === LICENSES_PATH ? { kind: 'continue' } : { kind: 'redirect', to: LICENSES_PATH };
    return { kind: 'redirect', to: LOGIN_WITH_LOGOUT };
  }

  // spec part 1 §2: admins needing new onboarding go to the onboarding page (admin-only, §6)
  if (entry && user.admin && input.needsOnboarding) return { kind: 'redirect', to: QUICK_SETUP_PATH };
  if (entry) return { kind: 'redirect', to: landingPath(user, menu.services) };
  return { kind: 'continue' };
}
