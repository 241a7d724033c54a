import type { Db } from '../../db/database.js';
import type { SessionRow } from '../../db/schema.js';

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
