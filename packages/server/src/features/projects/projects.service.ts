import {
  ACCESS_MESSAGES,
  DEFAULT_PROJECT,
  PROJECT_MESSAGES,
  formatMessage,
  type Project,
  type ProjectMember,
  type ProjectRole,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { ProjectRow } from '../../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../../core/errors.js';
import { isAdminPrincipal, isProjectAdmin, membershipsOf, type Principal } from '../../core/principals.js';
import {
  allProjects,
  deleteProjectRow,
  findProject,
  insertProject,
  knownPrincipals,
  membersOfProjects,
  replaceProjectMembers,
  repositoriesOfProjects,
  repositoryProjects,
  setRepositoriesProject,
  unassignedRepositories,
  updateProjectRow,
} from './projects.store.js';

const fill = (message: string, values: Record<string, string>) => formatMessage(message, values);

const isAdmin = isAdminPrincipal;

/** Throws 403 unless the caller administers the platform or this project. */
export async function requireProjectAdmin(db: Db, principal: Principal, key: string): Promise<void> {
  await getProjectRow(db, key);
  if (!(await isProjectAdmin(db, principal, key))) throw forbidden(PROJECT_MESSAGES.notProjectAdmin);
}

export async function getProjectRow(db: Db, key: string): Promise<ProjectRow> {
  const row = await findProject(db, key);
  if (!row) throw notFound(fill(PROJECT_MESSAGES.notFound, { name: key }));
  return row;
}

/** Projects the caller may see (administrators: all; others: those they belong to), with details. */
export async function listProjects(db: Db, principal: Principal): Promise<Project[]> {
  const memberships = await membershipsOf(db, principal);
  const admin = isAdmin(principal);
  const rows = await allProjects(db);
  const visible = rows.filter((r) => admin || memberships.has(r.key));
  if (!visible.length) return [];
  const keys = visible.map((r) => r.key);
  const repos = await repositoriesOfProjects(db, keys);
  const members = await membersOfProjects(db, keys);
  return visible.map((row) => ({
    projectKey: row.key,
    name: row.key,
    displayName: row.display_name,
    description: row.description,
    isCurrentUserProjectAdmin: admin || memberships.get(row.key) === 'admin',
    repositories: repos.filter((r) => r.project_key === row.key).map((r) => r.key),
    members: members
      .filter((m) => m.project_key === row.key)
      .map((m) => ({
        name: m.principal_name,
        type: m.principal_type as 'user' | 'group',
        role: m.role as ProjectRole,
      })),
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

export async function getProject(db: Db, principal: Principal, key: string): Promise<Project> {
  await getProjectRow(db, key);
  const project = (await listProjects(db, principal)).find((p) => p.projectKey === key);
  if (!project) throw notFound(fill(PROJECT_MESSAGES.notFound, { name: key }));
  return project;
}

export async function createProject(
  db: Db,
  input: { projectKey: string; displayName: string; description: string },
  now = Date.now(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (await findProject(trx, input.projectKey))
      throw conflict(fill(PROJECT_MESSAGES.keyTaken, { name: input.projectKey }));
    await insertProject(trx, {
      key: input.projectKey,
      display_name: input.displayName.trim(),
      description: input.description,
      created_at: now,
      updated_at: now,
    });
  });
}

export async function updateProject(
  db: Db,
  key: string,
  input: { displayName: string; description: string },
  now = Date.now(),
): Promise<void> {
  await getProjectRow(db, key);
  await updateProjectRow(db, key, {
    display_name: input.displayName.trim(),
    description: input.description,
    updated_at: now,
  });
}

/** Deletes a project; its repositories stay, unassigned. The default project stays. */
export async function deleteProject(db: Db, key: string): Promise<void> {
  await getProjectRow(db, key);
  if (key === DEFAULT_PROJECT.key) throw badRequest(PROJECT_MESSAGES.defaultProject);
  await db.transaction().execute((trx) => deleteProjectRow(trx, key));
}

/** Replaces the members of a project; users and groups must exist. All or nothing. */
export async function setMembers(db: Db, key: string, members: ProjectMember[]): Promise<void> {
  await getProjectRow(db, key);
  const users = members.filter((m) => m.type === 'user').map((m) => m.name);
  const groups = members.filter((m) => m.type === 'group').map((m) => m.name);
  const known = await knownPrincipals(db, users, groups);
  const missingUser = users.find((u) => !known.users.includes(u));
  if (missingUser) throw badRequest(fill(ACCESS_MESSAGES.unknownUser, { name: missingUser }));
  const missingGroup = groups.find((g) => !known.groups.includes(g));
  if (missingGroup) throw badRequest(fill(ACCESS_MESSAGES.unknownGroup, { name: missingGroup }));
  const unique = new Map(members.map((m) => [`${m.type}:${m.name}`, m]));
  await db.transaction().execute((trx) =>
    replaceProjectMembers(
      trx,
      key,
      [...unique.values()].map((m) => ({
        project_key: key,
        principal_type: m.type,
        principal_name: m.name,
        role: m.role,
      })),
    ),
  );
}

/**
 * Puts repositories in a project, or (projectKey null) takes them out. Administrators move any
 * repository; a project admin only takes its own project's repositories out.
 */
export async function assignRepositories(
  db: Db,
  principal: Principal,
  projectKey: string | null,
  keys: string[],
): Promise<void> {
  if (projectKey) await getProjectRow(db, projectKey);
  const rows = await repositoryProjects(db, keys);
  const missing = keys.find((k) => !rows.some((r) => r.key === k));
  if (missing) throw badRequest(fill(ACCESS_MESSAGES.unknownRepository, { name: missing }));
  if (!isAdmin(principal)) {
    for (const row of rows) {
      const own = row.project_key !== null && (await isProjectAdmin(db, principal, row.project_key));
      if (projectKey !== null || !own) throw forbidden(PROJECT_MESSAGES.notProjectAdmin);
    }
  }
  await setRepositoriesProject(db, keys, projectKey);
}

export function unassignedRepositoryCount(db: Db): Promise<number> {
  return unassignedRepositories(db);
}
