import { describe, expect, it } from 'vitest';
import type { RouteObject } from 'react-router';
import { menuItems } from './menu';
import { CONSOLE_ROUTES, HANDLES, SERVICE_NOT_FOUND_HANDLES } from './route-handles';
import { ROUTES } from './router';
import { hasMenuIcon } from '../lib/menu-icons';
import {
  groupEntries,
  menuItemForPath,
  menuItemState,
  sidebarEntries,
  type MenuContext,
  type MenuItem,
} from '../lib/menu';

const MENU = menuItems();

const ctx = (over: Partial<MenuContext> = {}): MenuContext => ({
  admin: true,
  licenseRank: 1,
  services: { access: true },
  features: {},
  cloud: false,
  dedicatedCloud: false,
  ...over,
});
const item = (over: Partial<MenuItem>): MenuItem => ({
  key: 'k',
  label: 'K',
  path: '/k',
  sidebar: 'administration',
  ...over,
});

describe('menu filtering', () => {
  it('hides admin entries from non-admins', () => {
    expect(menuItemState(item({ adminOnly: true }), ctx({ admin: false })).state).toBe('hidden');
  });
  it('disables entries above the license rank, with the edition needed', () => {
    expect(menuItemState(item({ minRank: 5 }), ctx({ licenseRank: 1 }))).toEqual({
      state: 'disabled',
      reason: 'Needs an Enterprise+ license',
    });
    expect(menuItemState(item({ minRank: 5 }), ctx({ licenseRank: 5 })).state).toBe('visible');
  });
  it('disables every page but the licenses page when there is no valid license', () => {
    const entries = sidebarEntries(
      MENU,
      'administration',
      ctx({ licenseRank: 0, services: { access: true, artifactory: true } }),
    );
    expect(entries.filter((e) => e.status.state === 'visible').map((e) => e.item.key)).toEqual(['licenses']);
    expect(entries.find((e) => e.item.key === 'users')!.status).toEqual({
      state: 'disabled',
      reason: 'Needs a valid license',
    });
  });
  it('disables entries whose service is not running or whose feature is off', () => {
    expect(menuItemState(item({ service: 'mc' }), ctx()).state).toBe('disabled');
    expect(menuItemState(item({ feature: 'projects' }), ctx({ features: { projects: true } })).state).toBe('visible');
    expect(menuItemState(item({ feature: 'projects' }), ctx()).state).toBe('disabled');
  });
  it('hides cloud-only entries on premises and on dedicated cloud', () => {
    expect(menuItemState(item({ cloudOnly: true }), ctx()).state).toBe('hidden');
    expect(menuItemState(item({ cloudOnly: true }), ctx({ cloud: true, dedicatedCloud: true })).state).toBe('hidden');
    expect(menuItemState(item({ cloudOnly: true }), ctx({ cloud: true })).state).toBe('visible');
  });
  it('shows a non-admin only the application sidebar entries', () => {
    expect(sidebarEntries(MENU, 'administration', ctx({ admin: false }))).toEqual([]);
    expect(sidebarEntries(MENU, 'application', ctx({ admin: false })).map((e) => e.item.key)).toEqual([
      'overview',
      'artifacts',
      'packages',
      'builds',
      'bundles',
      'integrations',
    ]);
  });
  it('groups admin entries in menu order', () => {
    const groups = groupEntries(sidebarEntries(MENU, 'administration', ctx()));
    expect(groups.map((g) => g.group)).toEqual([
      'Repositories',
      'User Management',
      'Security',
      'Configuration',
      'Monitoring',
      'License Management',
      'Platform Management',
      'Platform Services',
    ]);
  });
  it('finds the entry of a path and of its sub-paths', () => {
    expect(menuItemForPath('/admin/management/users', MENU)?.key).toBe('users');
    expect(menuItemForPath('/admin/management/users/new', MENU)?.key).toBe('users');
    expect(menuItemForPath('/admin/management/users-old', MENU)).toBeUndefined();
  });
  it('reads every entry off the route table, once, at its route’s path', () => {
    expect(MENU.map((i) => i.key).sort()).toEqual(
      [
        'access-federation',
        'access-tokens',
        'app-integrations',
        'artifacts',
        'audit-trail',
        'authentication-providers',
        'backups',
        'builds',
        'bundles',
        'cold-storage',
        'environments',
        'general-settings',
        'groups',
        'integrations',
        'keys-management',
        'layouts',
        'license-buckets',
        'licenses',
        'mail',
        'overview',
        'packages',
        'pdn-teaser',
        'permissions',
        'pipelines-teaser',
        'platform-units',
        'projects',
        'proxies',
        'replications',
        'repositories',
        'retention',
        'security-general',
        'security-scanning',
        'service-status',
        'storage-summary',
        'support-zone',
        'system-logs',
        'topology',
        'users',
        'webhooks',
      ].sort(),
    );
    expect(new Set(MENU.map((i) => i.path)).size).toBe(MENU.length);
    expect(MENU.find((i) => i.key === 'artifacts')?.path).toBe('/repos/tree/General');
    expect(MENU.find((i) => i.key === 'packages')?.path).toBe('/packages');
    expect(MENU.find((i) => i.key === 'builds')?.path).toBe('/builds');
  });

  it('routes every page a feature declares once, with its data as the handle, and few of its own', () => {
    const routed: [string, unknown][] = [];
    const walk = (list: RouteObject[]) => {
      for (const route of list) {
        if (route.path && route.handle) routed.push([route.path, route.handle]);
        if (route.children) walk(route.children);
      }
    };
    walk(ROUTES);
    const handles: Record<string, unknown> = { ...HANDLES, ...SERVICE_NOT_FOUND_HANDLES };
    // each path is routed once
    expect(new Set(routed.map(([path]) => path)).size).toBe(routed.length);
    // a feature's page carries its own declaration as the handle
    for (const [path, handle] of routed) if (path in handles) expect(handle, path).toBe(handles[path]);
    // the router adds only the demo playground (with its nested pages) and the unknown path
    expect(routed.map(([path]) => path).filter((path) => !(path in handles))).toEqual(['/demo', '*']);
    expect(
      routed
        .map(([path]) => path)
        .filter((path) => path in handles)
        .sort(),
    ).toEqual(Object.keys(handles).sort());
    expect(CONSOLE_ROUTES.length).toBeGreaterThan(90);
  });

  it('gives every sidebar and administration entry its own icon', () => {
    expect(MENU.filter((i) => !hasMenuIcon(i.key)).map((i) => i.key)).toEqual([]);
  });
});
