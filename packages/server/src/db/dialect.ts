import { PostgresAdapter, type Kysely } from 'kysely';

/** The database engines Arca runs on. */
export type DbEngine = 'sqlite' | 'postgres';

/**
 * True on PostgreSQL (also inside a transaction), for the few queries the engines spell
 * differently. A leaf module, so that migrations ask it without importing the database module
 * that runs them.
 */
export function isPostgres(db: Pick<Kysely<never>, 'getExecutor'>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
