import type { Kysely } from 'kysely';

/**
 * What an administrator sets on a repository beyond where it points: a remote's offline switch and
 * its upstream timeout, a local's storage quota; and how each remote's upstream answered last.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('repositories')
    .addColumn('offline', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('repositories')
    .addColumn('socket_timeout_ms', 'integer', (c) => c.notNull().defaultTo(15_000))
    .execute();
  await db.schema
    .alterTable('repositories')
    .addColumn('quota_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('remote_states')
    .addColumn('repo_key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('reachable', 'integer', (c) => c.notNull())
    .addColumn('since', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'varchar(1000)')
    .execute();
}
