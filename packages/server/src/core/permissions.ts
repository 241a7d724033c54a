import type { FastifyRequest } from 'fastify';
import picomatch from 'picomatch';
import {
  ANONYMOUS_USER,
  ANY_LOCAL,
  ANY_REMOTE,
  ANY_REPOSITORY,
  ANY_VIRTUAL,
  AUTH_MESSAGES,
  ERROR_MESSAGES,
  PERMISSION_ACTIONS,
  TRASHCAN_REPO,
  BUILD_INFO_REPO,
  RELEASE_BUNDLES_REPO,
  type PermissionAction,
  type PermissionResource,
  type ProjectRole,
} from '@arca/contracts';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { membershipsOf, principalNames, principalPairs, type Principal } from './principals.js';

export { actorName } from './principals.js';
import { HttpError } from './errors.js';
import { getSetting } from './settings.store.js';
import { cachedConfig } from './config-cache.js';

/** What a caller wants to do with a repository path. */
export type Action = PermissionAction;

/** Every action includes the weaker ones: manage ⊇ delete ⊇ deploy ⊇ annotate ⊇ read. */
const RANK: Record<Action, number> = Object.fromEntries(PERMISSION_ACTIONS.map((a, i) => [a, i])) as Record<
  Action,
  number
>;

/** What each project role may do with the project's repositories. */
const PROJECT_ROLE_ACTION: Record<ProjectRole, Action> = { viewer: 'read', developer: 'deploy', admin: 'manage' };

/** The actions a project role gives on the project's repositories, the weaker ones included. */
export const projectRoleActions = (role: ProjectRole): Action[] =>
  PERMISSION_ACTIONS.slice(0, RANK[PROJECT_ROLE_ACTION[role]] + 1);

interface Grant {
  /**
   * A repository resource's grant, a build resource's (which covers the build-info repository
   * only) or a release bundle resource's (the release-bundles repository only: `{name}/**`).
   */
  kind: 'repo' | 'build' | 'releaseBundle';
  repositories: Set<string>;
  include: (path: string) => boolean;
  exclude: (path: string) => boolean;
  /** Literal beginnings of the include patterns, to tell whether a folder may lead to something readable. */
  includePrefixes: string[];
  rank: number;
  /** Includes '**' and excludes nothing: every path of the covered repositories. */
  everything: boolean;
  /** The Ant patterns themselves, for callers that turn rights into queries. */
  patterns: { includes: string[]; excludes: string[] };
}

interface Rights {
  admin: boolean;
  grants: Grant[];
  repoClasses: Map<string, string>;
  hideUnauthorized: boolean;
}

const WILDCARD = /[*?[{]/;
const matcher = (patterns: string[]) => {
  const list = patterns.filter((p) => p.trim() !== '');
  if (list.length === 0) return () => false;
  const match = picomatch(list, { dot: true });
  return (path: string) => match(path);
};

/** Whether Ant include/exclude patterns (empty includes: everything) cover a path, as a grant would. */
export function patternsCover(includes: string[], excludes: string[], path: string): boolean {
  const include = matcher(includes.length ? includes : ['**']);
  return include(path) && !matcher(excludes)(path);
}

function compileGrant(resource: PermissionResource, actions: string[], kind: Grant['kind'] = 'repo'): Grant {
  const includes = resource.includes.length ? resource.includes : ['**'];
  return {
    kind,
    repositories: new Set(
      kind === 'build' ? [BUILD_INFO_REPO] : kind === 'releaseBundle' ? [RELEASE_BUNDLES_REPO] : resource.repositories,
    ),
    include: (() => {
      const match = matcher(includes);
      return (path: string) => path === '' || match(path);
    })(),
    exclude: matcher(resource.excludes),
    includePrefixes: includes.map((p) => {
      const wild = p.search(WILDCARD);
      return (wild < 0 ? p : p.slice(0, wild)).replace(/\/+$/, '');
    }),
    rank: Math.max(-1, ...actions.map((a) => RANK[a as Action] ?? -1)),
    everything: includes.includes('**') && resource.excludes.every((p) => p.trim() === ''),
    patterns: { includes, excludes: resource.excludes.filter((p) => p.trim() !== '') },
  };
}

/**
 * Rights are loaded once per request: the principal object lives for one request, so a change
 * to targets, groups or memberships applies to the next request at once.
 */
const rightsCache = new WeakMap<Principal, Promise<Rights>>();

async function loadRights(db: Db, principal: Principal): Promise<Rights> {
  const hideUnauthorized = (await getSetting(db, 'security.policy')).hideUnauthorizedResources ?? false;
  if (principal.kind === 'user' && principal.user.admin === 1 && !principal.scopeGroups) {
    return { admin: true, grants: [], repoClasses: new Map(), hideUnauthorized };
  }
  let query = db
    .selectFrom('permission_grants as g')
    .innerJoin('permission_targets as t', 't.name', 'g.target_name')
    .select(['t.resources', 'g.actions', 'g.resource'])
    .where('g.resource', 'in', ['repo', 'build', 'releaseBundle']);
  if (principal.kind === 'anonymous') {
    if (!(await getSetting(db, 'security.anonymousAccess'))) {
      return { admin: false, grants: [], repoClasses: new Map(), hideUnauthorized };
    }
    query = query.where('g.principal_type', '=', 'user').where('g.principal_name', '=', ANONYMOUS_USER);
  } else {
    const pairs = principalPairs(await principalNames(db, principal));
    if (pairs.length === 0) query = query.where(sql<boolean>`1 = 0`);
    else {
      query = query.where((eb) =>
        eb.or(pairs.map((p) => eb.and([eb('g.principal_type', '=', p.type), eb('g.principal_name', 'in', p.names)]))),
      );
    }
  }
  const rows = await query.execute();
  const grants = rows
    .map((row) => {
      const resources = JSON.parse(row.resources) as {
        repo?: PermissionResource;
        build?: PermissionResource;
        releaseBundle?: PermissionResource;
      };
      // build patterns name builds: `{build name}/**` covers its numbers in the build-info repository
      if (row.resource === 'build')
        return resources.build ? compileGrant(resources.build, row.actions.split(','), 'build') : undefined;
      // release bundle patterns name bundles: `{bundle name}/**` covers its versions
      if (row.resource === 'releaseBundle')
        return resources.releaseBundle
          ? compileGrant(resources.releaseBundle, row.actions.split(','), 'releaseBundle')
          : undefined;
      return resources.repo ? compileGrant(resources.repo, row.actions.split(',')) : undefined;
    })
    .filter((g): g is Grant => g !== undefined && g.rank >= 0);
  const repos = await db.selectFrom('repositories').select(['key', 'rclass', 'project_key']).execute();
  // project members get their role's rights on every repository of the project
  for (const [project, role] of await membershipsOf(db, principal)) {
    const keys = repos.filter((r) => r.project_key === project).map((r) => r.key);
    if (keys.length) {
      grants.push(
        compileGrant({ repositories: keys, includes: ['**'], excludes: [], users: {}, groups: {} }, [
          PROJECT_ROLE_ACTION[role],
        ]),
      );
    }
  }
  return {
    admin: false,
    grants,
    repoClasses: new Map(repos.map((r) => [r.key, r.rclass])),
    hideUnauthorized,
  };
}

/** Which cached rights a principal has: the same for every request of the same user (and token scope). */
function rightsKey(principal: Principal): string {
  if (principal.kind === 'anonymous') return 'rights:anonymous';
  return `rights:user:${principal.user.id}:${principal.user.admin}:${principal.scopeGroups?.join(',') ?? '*'}`;
}

function rightsOf(db: Db, principal: Principal): Promise<Rights> {
  let rights = rightsCache.get(principal);
  if (!rights) {
    // per request, and per process while the configuration generation stays the same
    rights = cachedConfig(db, rightsKey(principal), () => loadRights(db, principal));
    rightsCache.set(principal, rights);
  }
  return rights;
}

function coversRepo(grant: Grant, repoKey: string, rclass: string | undefined): boolean {
  // build info is governed by the build resources of permission targets, release bundles by their
  // own resources, never by 'ANY' repositories
  if ((repoKey === BUILD_INFO_REPO) !== (grant.kind === 'build')) return false;
  if ((repoKey === RELEASE_BUNDLES_REPO) !== (grant.kind === 'releaseBundle')) return false;
  if (grant.repositories.has(repoKey) || grant.repositories.has(ANY_REPOSITORY)) return true;
  if (rclass === 'local' && grant.repositories.has(ANY_LOCAL)) return true;
  if (rclass === 'remote' && grant.repositories.has(ANY_REMOTE)) return true;
  return rclass === 'virtual' && grant.repositories.has(ANY_VIRTUAL);
}

function grantAllows(grant: Grant, path: string, asFolder: boolean): boolean {
  if (grant.exclude(path)) return false;
  if (grant.include(path)) return true;
  // a folder on the way to readable content is visible (include 'org/acme/**' shows 'org')
  return asFolder && grant.includePrefixes.some((prefix) => prefix.startsWith(`${path}/`));
}

function allowed(rights: Rights, action: Action, repoKey: string, path: string, asFolder: boolean): boolean {
  if (rights.admin) return true;
  if (repoKey === TRASHCAN_REPO) return allowedInTrash(rights, action, path, asFolder);
  const rclass = rights.repoClasses.get(repoKey);
  return rights.grants.some(
    (g) => g.rank >= RANK[action] && coversRepo(g, repoKey, rclass) && grantAllows(g, path, asFolder),
  );
}

/**
 * The trash can holds `<original repository>/<original path>`. An item there is authorised
 * against where it was deleted from, and needs the right to delete there (those who could have
 * deleted it may see and restore it); no grant covers the trash can itself, 'any' grants
 * included, so only administrators browse it as a whole.
 */
function allowedInTrash(rights: Rights, action: Action, path: string, asFolder: boolean): boolean {
  const slash = path.indexOf('/');
  const repoKey = slash < 0 ? path : path.slice(0, slash);
  if (!repoKey || repoKey === TRASHCAN_REPO) return false;
  const needed = RANK[action] > RANK.delete ? action : 'delete';
  return allowed(rights, needed, repoKey, slash < 0 ? '' : path.slice(slash + 1), asFolder);
}

/**
 * The one authorisation function every repository and artifact route calls. Admins may do
 * everything; everyone else gets the union of the permission targets granted to them and to
 * their groups (or, for a scoped token, to the groups it names); the anonymous user gets the
 * targets granted to 'anonymous' while anonymous access is on.
 */
export async function isAllowed(
  db: Db,
  principal: Principal,
  action: Action,
  repoKey: string,
  path: string,
): Promise<boolean> {
  return allowed(await rightsOf(db, principal), action, repoKey, path, action === 'read');
}

/** The message of a refused action on one path. */
function refusal(action: Action, repoKey: string, path: string): string {
  return `You do not have ${action} permission on '${repoKey}${path ? `/${path}` : ''}'.`;
}

/**
 * Requires `action` on every one of `paths` (an operation on a folder touches everything below
 * it: a path an exclude pattern refuses refuses the whole operation, which then changes nothing).
 */
export async function requireOnEach(
  request: FastifyRequest,
  action: Action,
  repoKey: string,
  paths: Iterable<string>,
): Promise<void> {
  const rights = await rightsOf(request.server.db, request.principal);
  if (rights.admin) return;
  for (const path of paths) {
    if (allowed(rights, action, repoKey, path, false)) continue;
    if (request.principal.kind === 'anonymous') throw new HttpError(401, AUTH_MESSAGES.loginRequired);
    throw new HttpError(403, refusal(action, repoKey, path));
  }
}

/** Which items of a repository a caller may see; `null` when it may see all of them. */
export type ReadFilter = ((path: string, folder: boolean) => boolean) | null;

/**
 * A synchronous filter for listings (tree, storage API, search): folders are shown when they
 * match or lead to something readable.
 */
export async function readFilter(db: Db, principal: Principal, repoKey: string): Promise<ReadFilter> {
  const rights = await rightsOf(db, principal);
  if (rights.admin) return null;
  if (repoKey === TRASHCAN_REPO) return (path, folder) => allowed(rights, 'read', repoKey, path, folder);
  const rclass = rights.repoClasses.get(repoKey);
  const covering = rights.grants.filter((g) => coversRepo(g, repoKey, rclass));
  // the common case, a target on the whole repository, needs no per-item check
  if (covering.some((g) => g.everything)) return null;
  return (path, folder) => allowed(rights, 'read', repoKey, path, folder);
}

/**
 * What a caller may read of one repository, as data: everything, nothing, or the union of
 * include/exclude Ant pattern sets (a path is readable when some set includes it and does not
 * exclude it). Search and other bulk queries turn this into SQL instead of filtering row by row.
 */
export type ReadScope = { kind: 'all' } | { kind: 'patterns'; sets: { includes: string[]; excludes: string[] }[] };

export async function readScope(db: Db, principal: Principal, repoKey: string): Promise<ReadScope> {
  const rights = await rightsOf(db, principal);
  if (rights.admin) return { kind: 'all' };
  if (repoKey === TRASHCAN_REPO) return { kind: 'patterns', sets: [] };
  const rclass = rights.repoClasses.get(repoKey);
  const covering = rights.grants.filter((g) => g.rank >= RANK.read && coversRepo(g, repoKey, rclass));
  if (covering.some((g) => g.everything)) return { kind: 'all' };
  return { kind: 'patterns', sets: covering.map((g) => g.patterns) };
}

/**
 * Throws 401 for an anonymous caller and 403 for a signed-in one when the action is not allowed;
 * with 'hide existence of unauthorised resources' on, a caller who may not even read gets 404.
 */
export async function requirePermission(
  request: FastifyRequest,
  action: Action,
  repoKey: string,
  path = '',
  options: { below?: boolean } = {},
): Promise<void> {
  const { db } = request.server;
  const rights = await rightsOf(db, request.principal);
  // reading a folder on the way to readable content is allowed; a file never has such content;
  // `below`: the action allowed somewhere at or below the folder (before a body says where exactly)
  if (allowed(rights, action, repoKey, path, action === 'read' || options.below === true)) return;
  if (request.principal.kind === 'anonymous') throw new HttpError(401, AUTH_MESSAGES.loginRequired);
  if (rights.hideUnauthorized && !allowed(rights, 'read', repoKey, path, true)) {
    throw new HttpError(404, ERROR_MESSAGES.notFound);
  }
  throw new HttpError(403, refusal(action, repoKey, path));
}
