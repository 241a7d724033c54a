import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { NewUser, UserRow } from '../../db/schema.js';

/* ---------- users: who is who ---------- */

export function findUserByName(db: Db, name: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('name', '=', name).executeTakeFirst();
}

/**
 * The users whose names are `name` when case and surrounding spaces are set aside: how a directory
 * compares names, so how the accounts of its entries are found.
 */
export function findUsersByFoldedName(db: Db, name: string): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(name)`, '=', name.trim().toLowerCase())
    .orderBy('created_at')
    .execute();
}

/** The user an external identity (issuer and subject of an OpenID provider) is tied to. */
export function findUserBySubject(db: Db, subject: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('external_subject', '=', subject).executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(db: Db, user: NewUser): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function setLastLogin(db: Db, id: string, at: number): Promise<void> {
  await db.updateTable('users').set({ last_login_at: at }).where('id', '=', id).execute();
}

/* ---------- failed sign-ins ---------- */

export function findLoginFailures(db: Db, userName: string) {
  return db.selectFrom('login_failures').selectAll().where('user_name', '=', userName).executeTakeFirst();
}

export async function putLoginFailures(
  db: Db,
  row: { user_name: string; failures: number; window_start: number; locked_until: number | null; cause: string },
): Promise<void> {
  await db
    .insertInto('login_failures')
    .values(row)
    .onConflict((oc) =>
      oc.column('user_name').doUpdateSet({
        failures: row.failures,
        window_start: row.window_start,
        locked_until: row.locked_until,
        cause: row.cause,
      }),
    )
    .execute();
}

export async function clearLoginFailures(db: Db, userName: string): Promise<void> {
  await db.deleteFrom('login_failures').where('user_name', '=', userName).execute();
}

/** Names locked at `now`, with the time each lock ends. */
export async function listLocks(db: Db, now: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('login_failures')
    .select(['user_name', 'locked_until'])
    .where('locked_until', '>', now)
    .execute();
  return new Map(rows.map((r) => [r.user_name, Number(r.locked_until)]));
}

/* ---------- how users prove who they are: passwords and second factors ---------- */

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function setPasswordHash(db: Db, userId: string, hash: string, at: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: hash, password_changed_at: at, must_change_password: 0 })
    .where('id', '=', userId)
    .execute();
}

/** Records the time step of a second-factor code if it is later than the last one used; false otherwise. */
export async function useOtpStep(db: Db, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ mfa_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('mfa_last_step', 'is', null), eb('mfa_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setMfaSecret(db: Db, userId: string, secret: string): Promise<void> {
  await db.updateTable('users').set({ mfa_secret: secret }).where('id', '=', userId).execute();
}

export async function setMfaEnrolled(db: Db, userId: string, at: number): Promise<void> {
  await db.updateTable('users').set({ mfa_enrolled_at: at }).where('id', '=', userId).execute();
}

export async function clearMfa(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ mfa_secret: null, mfa_enrolled_at: null, mfa_last_step: null })
    .where('id', '=', userId)
    .execute();
}

/** Ends every session of a user (a new password, a deleted user). */
export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
}
