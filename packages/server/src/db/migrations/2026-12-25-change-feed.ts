import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * PostgreSQL's change feed (`db/change-feed.ts`): a commit that wrote the items or the
 * generations notifies `arca_changes` (PostgreSQL sends one notification per transaction and
 * channel at its commit), so that every node's caches of items and configuration learn of it
 * without a query per request. SQLite has its data version instead: nothing to add.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`
    create or replace function arca_notify_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('arca_changes', '');
      return null;
    end
    $$`.execute(db);
  for (const table of ['items', 'generations']) {
    await sql`
      create trigger ${sql.raw(`${table}_changed`)}
      after insert or update or delete on ${sql.table(table)}
      for each statement execute function arca_notify_change()`.execute(db);
    await sql`
      create trigger ${sql.raw(`${table}_truncated`)}
      after truncate on ${sql.table(table)}
      for each statement execute function arca_notify_change()`.execute(db);
  }
}
