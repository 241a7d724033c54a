import type { Db } from '../../db/database.js';
import type { SessionRow, WebLoginsTable } from '../../db/schema.js';

export async function insertSession(db: Db, session: SessionRow): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

export function findSession(db: Db, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function touchSession(db: Db, id: string, at: number): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Removes sessions past their absolute expiry. */
export async function deleteExpiredSessions(db: Db, now: number): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
}

/* ---------- browser sign-ins of command-line clients (web_logins) ---------- */

/** Stores a browser sign-in and removes those nobody finished. */
export async function insertWebLogin(db: Db, row: WebLoginsTable, now: number): Promise<void> {
  await db.insertInto('web_logins').values(row).execute();
  await db.deleteFrom('web_logins').where('expires_at', '<', now).execute();
}

export function webLoginById(db: Db, idHash: string): Promise<WebLoginsTable | undefined> {
  return db.selectFrom('web_logins').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
}

export function webLoginByDone(db: Db, doneHash: string): Promise<WebLoginsTable | undefined> {
  return db.selectFrom('web_logins').selectAll().where('done_hash', '=', doneHash).executeTakeFirst();
}

/** Records the answer to a sign-in not answered yet; false when it was answered already. */
export async function answerWebLogin(db: Db, idHash: string, approvedBy: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('web_logins')
    .set({ approved_by: approvedBy, approved_at: at })
    .where('id_hash', '=', idHash)
    .where('approved_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Marks an approved sign-in collected; false when it was collected already (it works exactly once). */
export async function collectWebLogin(db: Db, doneHash: string, at: number): Promise<boolean> {
  const result = await db
    .updateTable('web_logins')
    .set({ done_at: at })
    .where('done_hash', '=', doneHash)
    .where('done_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteWebLogin(db: Db, doneHash: string): Promise<void> {
  await db.deleteFrom('web_logins').where('done_hash', '=', doneHash).execute();
}
