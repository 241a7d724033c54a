import { describe, expect, it } from 'vitest';
import type { UserData } from '@arca/contracts';
import { LICENSES_PATH, resolveNavigation, rewriteLegacyLink, type NavigationInput } from './guards';
import type { MenuContext } from '../lib/menu';
import { CONSOLE_ROUTES } from './route-handles';

const user = (over: Partial<UserData> = {}): UserData => ({
  name: 'dev',
  email: null,
  admin: false,
  anonAccessEnabled: false,
  disableUIAccess: false,
  isDefaultProjectAdmin: false,
  mustChangePassword: false,
  realm: 'internal',
  lastLoggedIn: null,
  xrayPermissions: { canManage: false, isWatchManager: false, isPolicyManager: false, isPolicyViewer: false },
  ...over,
});
const admin = user({ name: 'admin', admin: true });
const anonymous = user({ name: 'anonymous' });
const menu = (over: Partial<MenuContext> = {}): MenuContext => ({
  admin: false,
  licenseRank: 1,
  services: { access: true, artifactory: true },
  features: {},
  cloud: false,
  dedicatedCloud: false,
  ...over,
});
const input = (over: Partial<NavigationInput>): NavigationInput => ({
  pathname: '/overview',
  search: '',
  hash: '',
  meta: {},
  user: user(),
  menu: menu(),
  ...over,
});

describe('navigation guards, in the order of the spec', () => {
  it('skips every guard on public routes', () => {
    expect(
      resolveNavigation(input({ meta: { public: true }, user: anonymous, menu: menu({ licenseRank: 0 }) })),
    ).toEqual({
      kind: 'continue',
    });
  });

  it('rewrites legacy tree links before anything else', () => {
    expect(
      resolveNavigation(
        input({ pathname: '/', hash: '#/artifacts/browse/tree/General/libs/a/b.jar', user: anonymous }),
      ),
    ).toEqual({
      kind: 'redirect',
      to: '/repos/tree/General/libs/a/b.jar',
    });
  });

  it('sends anonymous users to login with the logout flag, the message and the remembered path', () => {
    expect(resolveNavigation(input({ pathname: '/admin/management/users', search: '?q=1', user: anonymous }))).toEqual({
      kind: 'redirect',
      to: '/login?logout=true',
      message: 'You are not authorized to view this page',
      rememberPath: '/admin/management/users?q=1',
    });
  });

  it('sends anonymous users arriving at the root to login without a message', () => {
    expect(resolveNavigation(input({ pathname: '/', user: anonymous }))).toEqual({
      kind: 'redirect',
      to: '/login?logout=true',
    });
  });

  it('lets anonymous users in when anonymous access is on', () => {
    expect(resolveNavigation(input({ user: user({ name: 'anonymous', anonAccessEnabled: true }) }))).toEqual({
      kind: 'continue',
    });
  });

  it('sends anonymous users with blocked UI to login', () => {
    const blocked = user({ name: 'anonymous', anonAccessEnabled: true, disableUIAccess: true });
    expect(resolveNavigation(input({ pathname: '/overview', user: blocked }))).toMatchObject({
      kind: 'redirect',
      to: '/login',
    });
  });

  it('blocks the admin area for non-admins', () => {
    expect(resolveNavigation(input({ pathname: '/admin/management/users', meta: { admin: true } }))).toEqual({
      kind: 'redirect',
      to: '/authorization',
      message: 'You are not authorized to view this page',
    });
  });

  it('opens the Security & Compliance pages to the holders of a security scanning role, and no other administration page', () => {
    const viewer = user({
      xrayPermissions: { canManage: false, isWatchManager: false, isPolicyManager: false, isPolicyViewer: true },
    });
    const ctx = menu({ scanningRole: true });
    const metaOf = (path: string) => CONSOLE_ROUTES.find((r) => r.path === path)!;
    const go = (pathname: string, who: UserData) =>
      resolveNavigation(input({ pathname, meta: metaOf(pathname), user: who, menu: ctx })).kind;
    for (const path of ['/admin/security/policies', '/admin/security/watches', '/admin/security/ignore-rules'])
      expect(go(path, viewer), path).toBe('continue');
    // importing advisories stays with administrators, as every other administration page
    expect(go('/admin/security/advisories', viewer)).toBe('redirect');
    expect(go('/admin/repositories', viewer)).toBe('redirect');
    // without a role: none of them
    expect(go('/admin/security/policies', user())).toBe('redirect');
  });

  it('blocks an admin page whose menu entry is disabled', () => {
    const decision = resolveNavigation(
      input({
        user: admin,
        menu: menu({ admin: true, services: { access: false } }),
        pathname: '/admin/management/users',
        meta: { admin: true, menuKey: 'users' },
      }),
    );
    expect(decision).toMatchObject({ kind: 'redirect', to: '/authorization' });
  });

  it('sends admins to the licenses page when there is no valid license, and lets them stay there', () => {
    const none = menu({ admin: true, licenseRank: 0 });
    expect(resolveNavigation(input({ user: admin, menu: none }))).toEqual({ kind: 'redirect', to: LICENSES_PATH });
    expect(
      resolveNavigation(
        input({ user: admin, menu: none, pathname: LICENSES_PATH, meta: { admin: true, menuKey: 'licenses' } }),
      ),
    ).toEqual({
      kind: 'continue',
    });
  });

  it('sends other users to login with logout when there is no valid license', () => {
    expect(resolveNavigation(input({ menu: menu({ licenseRank: 0 }) }))).toEqual({
      kind: 'redirect',
      to: '/login?logout=true',
    });
  });

  it('redirects root and /home to the landing page: Packages for users, the overview for administrators', () => {
    expect(resolveNavigation(input({ pathname: '/' }))).toEqual({ kind: 'redirect', to: '/packages' });
    expect(resolveNavigation(input({ pathname: '/home', user: admin }))).toEqual({ kind: 'redirect', to: '/overview' });
    // with the mission-control service, administrators land on the topology of their deployments
    const withMc = input({ pathname: '/', user: admin });
    expect(resolveNavigation({ ...withMc, menu: { ...withMc.menu, services: { mc: true } } })).toEqual({
      kind: 'redirect',
      to: '/admin/mission_control/topology',
    });
  });

  it('sends an administrator who needs onboarding from the entry to the quick setup, and no one else', () => {
    expect(resolveNavigation(input({ pathname: '/', user: admin, needsOnboarding: true }))).toEqual({
      kind: 'redirect',
      to: '/quick-setup',
    });
    // a deep link is followed as it is; a user is never onboarded
    expect(resolveNavigation(input({ pathname: '/builds', user: admin, needsOnboarding: true }))).toEqual({
      kind: 'continue',
    });
    expect(resolveNavigation(input({ pathname: '/', needsOnboarding: true }))).toEqual({
      kind: 'redirect',
      to: '/packages',
    });
  });
});

describe('legacy link rewriting', () => {
  it('keeps the path after /tree/General', () => {
    expect(rewriteLegacyLink('/artifactory/webapp/', '#/artifacts/browse/tree/General/repo/x%20y.txt')).toBe(
      '/repos/tree/General/repo/x y.txt',
    );
  });
  it('goes to the tree root when the rewrite fails', () => {
    expect(rewriteLegacyLink('/tree/General/%E0%A4%A', '')).toBe('/repos/tree/General/');
    expect(rewriteLegacyLink('/tree/General/../../etc', '')).toBe('/repos/tree/General/');
  });
  it('leaves other paths alone', () => {
    expect(rewriteLegacyLink('/overview', '')).toBeUndefined();
    expect(rewriteLegacyLink('/repos/tree/General/libs', '')).toBeUndefined();
  });
});
