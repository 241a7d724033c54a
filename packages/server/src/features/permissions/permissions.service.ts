import picomatch from 'picomatch';
import { z } from 'zod';
import {
  ACCESS_MESSAGES,
  ANONYMOUS_USER,
  ANY_LOCAL,
  ANY_REMOTE,
  ANY_REPOSITORY,
  ANY_REPOSITORY_CHOICES,
  ANY_VIRTUAL,
  REPOSITORY_MESSAGES,
  USER_MESSAGES,
  type EffectivePermission,
  type EffectivePermissions,
  type ProjectRole,
  PERMISSION_ACTIONS,
  PERMISSION_RESOURCES,
  REST_ACTION_NAMES,
  TARGET_NAME_PATTERN,
  formatMessage,
  type PermissionAction,
  type PermissionResource,
  type PermissionResourceKind,
  type PermissionRestBody,
  type PermissionTarget,
  type RestPermissionResource,
} from '@arca/contracts';
import type { OnChange } from '../../core/changes.js';
import type { Db } from '../../db/database.js';
import { projectRoleActions } from '../../core/permissions.js';
import { allTargets, deleteTargetRows, findTarget, grantsOf, knownNames, saveTargetRows } from './permissions.store.js';
import type { PermissionTargetRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';

const fill = (message: string, name: string) => formatMessage(message, { name });
const iso = (ms: number) => new Date(ms).toISOString();

/** The target without its name and dates: what a form or REST body sets. */
export type TargetBody = Pick<PermissionTarget, PermissionResourceKind>;

/** Stored form of a resource: the scope only; who may act on it lives in permission_grants. */
type StoredScope = Pick<PermissionResource, 'repositories' | 'includes' | 'excludes'>;

function scopeOf(resource: PermissionResource): StoredScope {
  return { repositories: resource.repositories, includes: resource.includes, excludes: resource.excludes };
}

async function toTarget(db: Db, row: PermissionTargetRow): Promise<PermissionTarget> {
  const grants = await grantsOf(db, row.name);
  return assemble(row, grants);
}

function assemble(
  row: PermissionTargetRow,
  grants: { resource: string; principal_type: string; principal_name: string; actions: string }[],
): PermissionTarget {
  const scopes = JSON.parse(row.resources) as Partial<Record<PermissionResourceKind, StoredScope>>;
  const target: PermissionTarget = {
    name: row.name,
    repo: null,
    build: null,
    releaseBundle: null,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
  for (const kind of PERMISSION_RESOURCES) {
    const scope = scopes[kind];
    if (!scope) continue;
    const resource: PermissionResource = { ...scope, users: {}, groups: {} };
    for (const g of grants.filter((grant) => grant.resource === kind)) {
      const actions = g.actions.split(',').filter(Boolean) as PermissionAction[];
      (g.principal_type === 'group' ? resource.groups : resource.users)[g.principal_name] = actions;
    }
    target[kind] = resource;
  }
  return target;
}

export async function listTargets(db: Db): Promise<PermissionTarget[]> {
  const rows = await allTargets(db);
  const grants = await grantsOf(db);
  return rows.map((row) =>
    assemble(
      row,
      grants.filter((g) => g.target_name === row.name),
    ),
  );
}

export async function getTarget(db: Db, name: string): Promise<PermissionTarget> {
  const row = await findTarget(db, name);
  if (!row) throw notFound(fill(ACCESS_MESSAGES.targetNotFound, name));
  return toTarget(db, row);
}

/** Checks names, repositories, principals and patterns; throws the first problem found. */
async function validate(db: Db, name: string, body: TargetBody): Promise<void> {
  if (!TARGET_NAME_PATTERN.test(name)) throw badRequest(ACCESS_MESSAGES.targetNameFormat);
  const resources = PERMISSION_RESOURCES.map((kind) => body[kind]).filter((r): r is PermissionResource => !!r);
  if (resources.length === 0) throw badRequest(ACCESS_MESSAGES.noResource);
  if (body.repo) {
    if (body.repo.repositories.length === 0) throw badRequest(ACCESS_MESSAGES.noRepositories);
    const named = body.repo.repositories.filter((r) => !(ANY_REPOSITORY_CHOICES as readonly string[]).includes(r));
    if (named.length) {
      const known = await knownNames(db, { repositories: named, users: [], groups: [] });
      const missing = named.find((key) => !known.repositories.includes(key));
      if (missing) throw badRequest(fill(ACCESS_MESSAGES.unknownRepository, missing));
    }
  }
  const users = new Set<string>();
  const groups = new Set<string>();
  for (const resource of resources) {
    for (const pattern of [...resource.includes, ...resource.excludes]) {
      try {
        if (pattern.trim()) picomatch.makeRe(pattern);
      } catch {
        throw badRequest(fill(ACCESS_MESSAGES.badPattern, pattern));
      }
      if (pattern.startsWith('/') || pattern.split('/').includes('..')) {
        throw badRequest(fill(ACCESS_MESSAGES.badPattern, pattern));
      }
    }
    Object.keys(resource.users).forEach((u) => users.add(u));
    Object.keys(resource.groups).forEach((g) => groups.add(g));
  }
  const known = await knownNames(db, { repositories: [], users: [...users], groups: [...groups] });
  const knownUsers = known.users;
  const missingUser = [...users].find((u) => u !== ANONYMOUS_USER && !knownUsers.includes(u));
  if (missingUser) throw badRequest(fill(ACCESS_MESSAGES.unknownUser, missingUser));
  const knownGroups = known.groups;
  const missingGroup = [...groups].find((g) => !knownGroups.includes(g));
  if (missingGroup) throw badRequest(fill(ACCESS_MESSAGES.unknownGroup, missingGroup));
}

function grantRows(name: string, body: TargetBody) {
  const rows: {
    target_name: string;
    resource: string;
    principal_type: string;
    principal_name: string;
    actions: string;
  }[] = [];
  for (const kind of PERMISSION_RESOURCES) {
    const resource = body[kind];
    if (!resource) continue;
    for (const [type, entries] of [
      ['user', resource.users],
      ['group', resource.groups],
    ] as const) {
      for (const [principal, actions] of Object.entries(entries)) {
        const ordered = PERMISSION_ACTIONS.filter((a) => actions.includes(a));
        if (ordered.length === 0) continue;
        rows.push({
          target_name: name,
          resource: kind,
          principal_type: type,
          principal_name: principal,
          actions: ordered.join(','),
        });
      }
    }
  }
  return rows;
}

function scopes(body: TargetBody): string {
  const stored: Partial<Record<PermissionResourceKind, StoredScope>> = {};
  for (const kind of PERMISSION_RESOURCES) {
    const resource = body[kind];
    if (resource) stored[kind] = scopeOf(resource);
  }
  return JSON.stringify(stored);
}

/** Creates (`mode` 'create', 409 when it exists) or replaces a target; all-or-nothing. */
export async function saveTarget(
  db: Db,
  name: string,
  body: TargetBody,
  mode: 'create' | 'replace' | 'upsert',
  onChange?: OnChange<{ name: string; created: boolean }>,
  now = Date.now(),
): Promise<{ created: boolean }> {
  await validate(db, name, body);
  return db.transaction().execute(async (trx) => {
    const existing = await findTarget(trx, name);
    if (existing && mode === 'create') throw conflict(fill(ACCESS_MESSAGES.targetTaken, name), 'name');
    if (!existing && mode === 'replace') throw notFound(fill(ACCESS_MESSAGES.targetNotFound, name));
    await saveTargetRows(
      trx,
      { name, resources: scopes(body), now, exists: existing !== undefined },
      grantRows(name, body),
    );
    await onChange?.(trx, { name, created: !existing });
    return { created: !existing };
  });
}

export async function deleteTargets(db: Db, names: string[], onChange?: OnChange<string[]>): Promise<void> {
  for (const name of names) await getTarget(db, name);
  await db.transaction().execute(async (trx) => {
    await deleteTargetRows(trx, names);
    await onChange?.(trx, names);
  });
}

/* ---------- Artifactory's v2 REST shape ---------- */

const FROM_REST: Record<string, PermissionAction> = Object.fromEntries(
  Object.entries(REST_ACTION_NAMES).map(([ours, theirs]) => [theirs, ours as PermissionAction]),
);

/** Actions of other products' services that have no meaning here; accepted and left out. */
const FOREIGN_ACTIONS = new Set(['managedXrayMeta', 'managedXrayWatches', 'distribute']);

function restActions(list: string[]): PermissionAction[] {
  const actions: PermissionAction[] = [];
  for (const name of list) {
    if (FOREIGN_ACTIONS.has(name)) continue;
    const action =
      FROM_REST[name] ??
      ((PERMISSION_ACTIONS as readonly string[]).includes(name) ? (name as PermissionAction) : undefined);
    if (!action) throw badRequest(fill(ACCESS_MESSAGES.unknownAction, name));
    actions.push(action);
  }
  return actions;
}

function fromRestResource(resource: RestPermissionResource | undefined): PermissionResource | null {
  if (!resource) return null;
  const map = (entries: Record<string, string[]> | undefined) =>
    Object.fromEntries(Object.entries(entries ?? {}).map(([name, list]) => [name, restActions(list)]));
  return {
    repositories: resource.repositories ?? [],
    includes: resource['include-patterns']?.length ? resource['include-patterns'] : ['**'],
    excludes: (resource['exclude-patterns'] ?? []).filter((p) => p !== ''),
    users: map(resource.actions?.users),
    groups: map(resource.actions?.groups),
  };
}

export function fromRestBody(body: PermissionRestBody): TargetBody {
  return {
    repo: fromRestResource(body.repo),
    build: fromRestResource(body.build),
    releaseBundle: fromRestResource(body.releaseBundle),
  };
}

function toRestResource(resource: PermissionResource): RestPermissionResource {
  const map = (entries: Record<string, PermissionAction[]>) =>
    Object.fromEntries(Object.entries(entries).map(([name, list]) => [name, list.map((a) => REST_ACTION_NAMES[a])]));
  return {
    'include-patterns': resource.includes,
    'exclude-patterns': resource.excludes.length ? resource.excludes : [''],
    repositories: resource.repositories,
    actions: { users: map(resource.users), groups: map(resource.groups) },
  };
}

export function toRestBody(target: PermissionTarget): PermissionRestBody {
  const body: PermissionRestBody = { name: target.name };
  for (const kind of PERMISSION_RESOURCES) {
    const resource = target[kind];
    if (resource) body[kind] = toRestResource(resource);
  }
  return body;
}

/** Artifactory's v1 action letters: r read, n annotate, w deploy, d delete, m manage. */
const V1_LETTERS: Record<PermissionAction, string> = {
  read: 'r',
  annotate: 'n',
  deploy: 'w',
  delete: 'd',
  manage: 'm',
};
const FROM_V1 = Object.fromEntries(Object.entries(V1_LETTERS).map(([ours, letter]) => [letter, ours])) as Record<
  string,
  PermissionAction
>;
/** Letters of other products' services (managed Xray metadata), accepted and left out. */
const FOREIGN_LETTERS = new Set(['mxm']);

export const permissionV1BodySchema = z.object({
  name: z.string().optional(),
  includesPattern: z.string().optional(),
  excludesPattern: z.string().optional(),
  repositories: z.array(z.string()).optional(),
  principals: z
    .object({
      users: z.record(z.string(), z.array(z.string())).optional(),
      groups: z.record(z.string(), z.array(z.string())).optional(),
    })
    .optional(),
});
export type PermissionV1Body = z.infer<typeof permissionV1BodySchema>;

const patterns = (text: string | undefined) =>
  (text ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);

export function fromV1Body(body: PermissionV1Body): PermissionResource {
  const letters = (entries: Record<string, string[]> | undefined) =>
    Object.fromEntries(
      Object.entries(entries ?? {}).map(([name, list]) => [
        name,
        list.flatMap((letter) => {
          if (FOREIGN_LETTERS.has(letter)) return [];
          const action = FROM_V1[letter];
          if (!action) throw badRequest(fill(ACCESS_MESSAGES.unknownAction, letter));
          return [action];
        }),
      ]),
    );
  const includes = patterns(body.includesPattern);
  return {
    repositories: body.repositories ?? [],
    includes: includes.length ? includes : ['**'],
    excludes: patterns(body.excludesPattern),
    users: letters(body.principals?.users),
    groups: letters(body.principals?.groups),
  };
}

export function toV1Body(name: string, resource: PermissionResource) {
  const letters = (entries: Record<string, PermissionAction[]>) =>
    Object.fromEntries(Object.entries(entries).map(([who, list]) => [who, list.map((a) => V1_LETTERS[a])]));
  return {
    name,
    includesPattern: resource.includes.join(','),
    excludesPattern: resource.excludes.join(','),
    repositories: resource.repositories,
    principals: { users: letters(resource.users), groups: letters(resource.groups) },
  };
}

/**
 * What a user (directly and through its groups), a group, or everyone on a repository may do,
 * grant by grant: from every permission target and every project membership, as Artifactory's
 * Effective Permissions tab lists it.
 */
export async function effectivePermissions(
  db: Db,
  subject: { user?: string; group?: string; repo?: string },
): Promise<EffectivePermissions> {
  const targets = await listTargets(db);
  let admin = false;
  let holds: (type: 'user' | 'group', name: string) => boolean;
  let covers: (resource: PermissionResourceKind, repositories: string[]) => boolean = () => true;
  let repoProject: string | null = null;
  if (subject.user !== undefined) {
    const user = await db
      .selectFrom('users')
      .select(['id', 'admin'])
      .where('name', '=', subject.user)
      .executeTakeFirst();
    if (!user) throw notFound(fill(USER_MESSAGES.notFound, subject.user));
    admin = Number(user.admin) === 1;
    const groups = new Set(
      (await db.selectFrom('group_members').select('group_name').where('user_id', '=', user.id).execute()).map(
        (g) => g.group_name,
      ),
    );
    holds = (type, name) => (type === 'user' ? name === subject.user : groups.has(name));
  } else if (subject.group !== undefined) {
    if (!(await db.selectFrom('groups').select('name').where('name', '=', subject.group).executeTakeFirst()))
      throw notFound(fill(ACCESS_MESSAGES.groupNotFound, subject.group));
    holds = (type, name) => type === 'group' && name === subject.group;
  } else {
    const repo = await db
      .selectFrom('repositories')
      .select(['key', 'rclass', 'project_key'])
      .where('key', '=', subject.repo!)
      .executeTakeFirst();
    if (!repo) throw notFound(formatMessage(REPOSITORY_MESSAGES.notFound, { key: subject.repo! }));
    repoProject = repo.project_key;
    const any = { local: ANY_LOCAL, remote: ANY_REMOTE, virtual: ANY_VIRTUAL }[repo.rclass as 'local'];
    holds = () => true;
    covers = (resource, repositories) =>
      resource === 'repo' &&
      (repositories.includes(repo.key) || repositories.includes(ANY_REPOSITORY) || repositories.includes(any));
  }
  const grants: EffectivePermission[] = [];
  for (const target of targets) {
    for (const resource of PERMISSION_RESOURCES) {
      const given = target[resource];
      if (!given || !covers(resource, given.repositories)) continue;
      for (const type of ['user', 'group'] as const) {
        for (const [name, actions] of Object.entries(type === 'user' ? given.users : given.groups)) {
          if (!holds(type, name) || !actions.length) continue;
          grants.push({
            source: { kind: 'target', name: target.name },
            resource,
            covers: given.repositories,
            includes: given.includes,
            excludes: given.excludes,
            principal: { type, name },
            actions: PERMISSION_ACTIONS.filter((a) => actions.includes(a)),
          });
        }
      }
    }
  }
  // project members: their role's actions on every repository of the project
  let members = db.selectFrom('project_members').select(['project_key', 'principal_type', 'principal_name', 'role']);
  if (subject.repo !== undefined) members = members.where('project_key', '=', repoProject ?? '');
  for (const member of await members.orderBy('project_key').execute()) {
    const type = member.principal_type as 'user' | 'group';
    if (!holds(type, member.principal_name)) continue;
    const repositories = await db
      .selectFrom('repositories')
      .select('key')
      .where('project_key', '=', member.project_key)
      .orderBy('key')
      .execute();
    grants.push({
      source: { kind: 'project', name: member.project_key },
      resource: 'repo',
      covers: subject.repo !== undefined ? [subject.repo] : repositories.map((r) => r.key),
      includes: ['**'],
      excludes: [],
      principal: { type, name: member.principal_name },
      actions: projectRoleActions(member.role as ProjectRole),
    });
  }
  return { admin, grants };
}
