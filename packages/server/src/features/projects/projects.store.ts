import type { Db } from '../../db/database.js';
import type { ProjectMembersTable, ProjectRow } from '../../db/schema.js';

/** The rows of the projects feature: projects, their members, and which repositories they hold. */

export function findProject(db: Db, key: string): Promise<ProjectRow | undefined> {
  return db.selectFrom('projects').selectAll().where('key', '=', key).executeTakeFirst();
}

export function allProjects(db: Db): Promise<ProjectRow[]> {
  return db.selectFrom('projects').selectAll().orderBy('key').execute();
}

/** The repositories of these projects, by key. */
export function repositoriesOfProjects(db: Db, keys: string[]): Promise<{ key: string; project_key: string | null }[]> {
  return db
    .selectFrom('repositories')
    .select(['key', 'project_key'])
    .where('project_key', 'in', keys)
    .orderBy('key')
    .execute();
}

/** The members of these projects: users first, then groups, by name. */
export function membersOfProjects(db: Db, keys: string[]): Promise<ProjectMembersTable[]> {
  return db
    .selectFrom('project_members')
    .selectAll()
    .where('project_key', 'in', keys)
    .orderBy('principal_type', 'desc')
    .orderBy('principal_name')
    .execute();
}

export async function insertProject(trx: Db, row: ProjectRow): Promise<void> {
  await trx.insertInto('projects').values(row).execute();
}

export async function updateProjectRow(
  db: Db,
  key: string,
  values: Pick<ProjectRow, 'display_name' | 'description' | 'updated_at'>,
): Promise<void> {
  await db.updateTable('projects').set(values).where('key', '=', key).execute();
}

/** Removes a project; its repositories stay, in no project. */
export async function deleteProjectRow(trx: Db, key: string): Promise<void> {
  await trx.updateTable('repositories').set({ project_key: null }).where('project_key', '=', key).execute();
  await trx.deleteFrom('projects').where('key', '=', key).execute();
}

/** Which of these names are users, and which are groups. */
export async function knownPrincipals(db: Db, users: string[], groups: string[]) {
  const knownUsers = users.length
    ? (await db.selectFrom('users').select('name').where('name', 'in', users).execute()).map((r) => r.name)
    : [];
  const knownGroups = groups.length
    ? (await db.selectFrom('groups').select('name').where('name', 'in', groups).execute()).map((r) => r.name)
    : [];
  return { users: knownUsers, groups: knownGroups };
}

/** Sets a project's members, replacing those it had. */
export async function replaceProjectMembers(trx: Db, key: string, members: ProjectMembersTable[]): Promise<void> {
  await trx.deleteFrom('project_members').where('project_key', '=', key).execute();
  if (members.length) await trx.insertInto('project_members').values(members).execute();
}

export function repositoryProjects(db: Db, keys: string[]): Promise<{ key: string; project_key: string | null }[]> {
  return db.selectFrom('repositories').select(['key', 'project_key']).where('key', 'in', keys).execute();
}

export async function setRepositoriesProject(db: Db, keys: string[], projectKey: string | null): Promise<void> {
  await db.updateTable('repositories').set({ project_key: projectKey }).where('key', 'in', keys).execute();
}

/** How many projects there are. */
export async function countProjects(db: Db): Promise<number> {
  const row = await db
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function unassignedRepositories(db: Db): Promise<number> {
  const row = await db
    .selectFrom('repositories')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('project_key', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
