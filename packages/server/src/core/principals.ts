import type { FastifyRequest } from 'fastify';
import type { ProjectRole } from '@arca/contracts';
import type { Db } from '../db/database.js';
import type { UserRow } from '../db/schema.js';
import { cachedConfig } from './config-cache.js';

/**
 * Who is calling: a user row, or the anonymous user. How a request becomes a principal (session,
 * password, token, API key) is the auth feature's business; what a principal may do is `core`'s.
 */
export type Principal =
  | {
      kind: 'user';
      user: UserRow;
      sessionId: string | null;
      /** Set for an access token scoped to groups: only those groups' permissions apply. */
      scopeGroups?: string[];
      /**
       * How the caller proved who it is: a console session, a password, a token / API key, or a
       * container registry token (good for the registry's `/v2/` calls only).
       */
      via?: 'session' | 'password' | 'token' | 'registry';
    }
  | { kind: 'anonymous' };

/**
 * What a route needs: `public` anyone (also when anonymous access is off), `user` a signed-in
 * user, `admin` an administrator. A route that declares nothing needs `admin`.
 */
export type Access = 'public' | 'user' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal: Principal;
  }
}

/** An administrator: the user's own flag or an administrators' group, and not limited by a token's scope. */
export function isAdminPrincipal(principal: Principal): boolean {
  return principal.kind === 'user' && principal.user.admin === 1 && !principal.scopeGroups;
}

export function isAdmin(request: FastifyRequest): boolean {
  return request.principal.kind === 'user' && request.principal.user.admin === 1;
}

/**
 * What the caller may do in security scanning (the spec's roles), from its groups' roles:
 * a policy manager writes policies, a watch manager writes watches and ignore rules, a policy
 * viewer reads both; any of the three reads them, administrators have all. `canManage`: writes any.
 */
export async function scanningPermissions(db: Db, principal: Principal) {
  const admin = isAdminPrincipal(principal);
  const { scanningRoles } = await principalNames(db, principal);
  const isPolicyManager = admin || scanningRoles.policyManager;
  const isWatchManager = admin || scanningRoles.watchManager;
  return {
    canManage: isPolicyManager || isWatchManager,
    isWatchManager,
    isPolicyManager,
    isPolicyViewer: admin || scanningRoles.policyViewer || isPolicyManager || isWatchManager,
  };
}

/** Display name of the caller, recorded as created-by / deleted-by. */
export function actorName(principal: Principal): string {
  return principal.kind === 'user' ? principal.user.name : 'anonymous';
}

/** Who a grant or membership may name on a principal's behalf: its user name and its groups. */
export interface PrincipalNames {
  /** Null for a token scoped to groups: only the groups' rights apply. */
  user: string | null;
  groups: string[];
  /** One of the user's groups has administrator privileges. */
  adminViaGroup: boolean;
  /** The security scanning roles the groups give. */
  scanningRoles: { watchManager: boolean; policyManager: boolean; policyViewer: boolean };
}

const NO_ROLES = { watchManager: false, policyManager: false, policyViewer: false };

const cache = new WeakMap<Principal, Promise<PrincipalNames>>();

async function load(db: Db, principal: Principal): Promise<PrincipalNames> {
  if (principal.kind !== 'user') return { user: null, groups: [], adminViaGroup: false, scanningRoles: NO_ROLES };
  const rows = await db
    .selectFrom('group_members as m')
    .innerJoin('groups as g', 'g.name', 'm.group_name')
    .select(['m.group_name', 'g.admin_privileges', 'g.watch_manager', 'g.policy_manager', 'g.policy_viewer'])
    .where('m.user_id', '=', principal.user.id)
    .execute();
  const groups = rows.map((r) => r.group_name);
  const { scopeGroups } = principal;
  // a token scoped to groups carries those of them the user still belongs to, never administration
  const scoped = scopeGroups ? rows.filter((r) => scopeGroups.includes(r.group_name)) : rows;
  const scanningRoles = {
    watchManager: scoped.some((r) => r.watch_manager === 1),
    policyManager: scoped.some((r) => r.policy_manager === 1),
    policyViewer: scoped.some((r) => r.policy_viewer === 1),
  };
  if (scopeGroups) return { user: null, groups: scoped.map((r) => r.group_name), adminViaGroup: false, scanningRoles };
  return {
    user: principal.user.name,
    groups,
    adminViaGroup: rows.some((r) => r.admin_privileges === 1),
    scanningRoles,
  };
}

/**
 * The names a principal's rights come from, once per request (the principal object lives for one
 * request) and per process while the configuration generation stays the same: every membership
 * change is a recorded change, so it applies to the next request.
 */
export function principalNames(db: Db, principal: Principal): Promise<PrincipalNames> {
  let names = cache.get(principal);
  if (!names) {
    names =
      principal.kind === 'user'
        ? cachedConfig(
            db,
            `names:${principal.user.id}:${principal.user.name}:${principal.scopeGroups?.join(',') ?? '*'}`,
            () => load(db, principal),
          )
        : load(db, principal);
    cache.set(principal, names);
  }
  return names;
}

/** `[type, name]` pairs to match against `principal_type` / `principal_name` columns. */
export function principalPairs(names: PrincipalNames): { type: 'user' | 'group'; names: string[] }[] {
  return [
    ...(names.user ? [{ type: 'user' as const, names: [names.user] }] : []),
    ...(names.groups.length ? [{ type: 'group' as const, names: names.groups }] : []),
  ];
}

const ROLE_RANK: Record<ProjectRole, number> = { viewer: 0, developer: 1, admin: 2 };
const membershipCache = new WeakMap<Principal, Promise<Map<string, ProjectRole>>>();

async function loadMemberships(db: Db, principal: Principal): Promise<Map<string, ProjectRole>> {
  const roles = new Map<string, ProjectRole>();
  const pairs = principalPairs(await principalNames(db, principal));
  if (pairs.length === 0) return roles;
  const rows = await db
    .selectFrom('project_members')
    .select(['project_key', 'role'])
    .where((eb) =>
      eb.or(pairs.map((p) => eb.and([eb('principal_type', '=', p.type), eb('principal_name', 'in', p.names)]))),
    )
    .execute();
  for (const row of rows) {
    const role = row.role as ProjectRole;
    const current = roles.get(row.project_key);
    if (!current || ROLE_RANK[role] > ROLE_RANK[current]) roles.set(row.project_key, role);
  }
  return roles;
}

/** The projects a principal is a member of (directly or through a group), with the strongest role; once per request. */
export function membershipsOf(db: Db, principal: Principal): Promise<Map<string, ProjectRole>> {
  let roles = membershipCache.get(principal);
  if (!roles) {
    roles = loadMemberships(db, principal);
    membershipCache.set(principal, roles);
  }
  return roles;
}

export async function isProjectAdmin(db: Db, principal: Principal, key: string): Promise<boolean> {
  if (isAdminPrincipal(principal)) return true;
  return (await membershipsOf(db, principal)).get(key) === 'admin';
}
