import type { Kysely } from 'kysely';

/** Replications of local repositories to and from registered deployments, and their runs. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('replications')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('deployment_id', 'varchar(36)', (c) => c.notNull().references('deployments.id').onDelete('cascade'))
    .addColumn('remote_repo_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('strategy', 'varchar(8)', (c) => c.notNull())
    .addColumn('cron', 'varchar(120)', (c) => c.notNull())
    .addColumn('event_based', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('include_patterns', 'text', (c) => c.notNull())
    .addColumn('exclude_patterns', 'text', (c) => c.notNull())
    .addColumn('sync_deletes', 'integer', (c) => c.notNull())
    .addColumn('sync_properties', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('replication_runs')
    .addColumn('id', 'varchar(80)', (c) => c.primaryKey())
    .addColumn('replication_key', 'varchar(64)', (c) => c.notNull().references('replications.key').onDelete('cascade'))
    .addColumn('trigger', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('node_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .addColumn('files_total', 'integer', (c) => c.notNull())
    .addColumn('files_done', 'integer', (c) => c.notNull())
    .addColumn('files_transferred', 'integer', (c) => c.notNull())
    .addColumn('files_deduplicated', 'integer', (c) => c.notNull())
    .addColumn('files_properties', 'integer', (c) => c.notNull())
    .addColumn('files_deleted', 'integer', (c) => c.notNull())
    .addColumn('files_failed', 'integer', (c) => c.notNull())
    .addColumn('bytes_transferred', 'bigint', (c) => c.notNull())
    .addColumn('output', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('replication_runs_started').on('replication_runs').columns(['started_at']).execute();
}
