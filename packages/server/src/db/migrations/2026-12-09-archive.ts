import type { Kysely } from 'kysely';

/**
 * Retention and archive: policies that move old artifacts to the cold store, their runs (and
 * restores) with the items each one takes, the archive catalogue, the cold store's contents and
 * a daily sample of the archive's size for the monitoring page.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('archive_policies')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('cron_exp', 'varchar(200)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('expiration_months', 'integer', (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) => c.notNull())
    .addColumn('skip_trashcan', 'integer', (c) => c.notNull())
    // the query the policy runs: the form's, converted, or the one written in AQL
    .addColumn('aql_query', 'text', (c) => c.notNull())
    .addColumn('search_criteria', 'text')
    .addColumn('next_execution_time', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('archive_executions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('policy_key', 'varchar(64)')
    .addColumn('state', 'varchar(32)', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addColumn('done', 'bigint', (c) => c.notNull())
    .addColumn('failed', 'bigint', (c) => c.notNull())
    .addColumn('skipped', 'bigint', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('options', 'text')
    .addColumn('stop_requested', 'integer', (c) => c.notNull())
    .addColumn('holder', 'varchar(200)', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('deadline', 'bigint')
    .addColumn('actor', 'varchar(256)', (c) => c.notNull())
    .addColumn('source_ip', 'varchar(100)', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('archive_executions_started').on('archive_executions').columns(['started_at']).execute();
  await db.schema
    .createIndex('archive_executions_policy')
    .on('archive_executions')
    .columns(['policy_key', 'state'])
    .execute();

  await db.schema
    .createTable('archive_execution_items')
    .addColumn('execution_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('item_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('state', 'varchar(8)', (c) => c.notNull())
    .addColumn('error', 'text')
    .addPrimaryKeyConstraint('archive_execution_items_pk', ['execution_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('archive_execution_items_state')
    .on('archive_execution_items')
    .columns(['execution_id', 'state', 'seq'])
    .execute();

  await db.schema
    .createTable('archived_items')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('parent', 'varchar(1024)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('sha1', 'varchar(40)', (c) => c.notNull())
    .addColumn('md5', 'varchar(32)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mime_type', 'varchar(128)')
    .addColumn('properties', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .addColumn('modified_by', 'varchar(256)', (c) => c.notNull())
    .addColumn('download_count', 'bigint', (c) => c.notNull())
    .addColumn('last_downloaded', 'bigint')
    .addColumn('archived_at', 'bigint', (c) => c.notNull())
    .addColumn('archived_by', 'varchar(256)', (c) => c.notNull())
    .addColumn('policy_key', 'varchar(64)')
    .addColumn('execution_id', 'varchar(36)')
    .addColumn('expires_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('archived_items_path')
    .on('archived_items')
    .columns(['repo_key', 'path'])
    .unique()
    .execute();
  await db.schema.createIndex('archived_items_name').on('archived_items').columns(['name']).execute();
  await db.schema.createIndex('archived_items_archived').on('archived_items').columns(['archived_at']).execute();
  await db.schema.createIndex('archived_items_sha256').on('archived_items').columns(['sha256']).execute();
  await db.schema.createIndex('archived_items_expires').on('archived_items').columns(['expires_at']).execute();

  await db.schema
    .createTable('cold_binaries')
    .addColumn('sha256', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('ref_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('archive_samples')
    .addColumn('day', 'varchar(10)', (c) => c.primaryKey())
    .addColumn('binaries_count', 'bigint', (c) => c.notNull())
    .addColumn('binaries_size', 'bigint', (c) => c.notNull())
    .addColumn('artifacts_count', 'bigint', (c) => c.notNull())
    .addColumn('artifacts_size', 'bigint', (c) => c.notNull())
    .addColumn('items_count', 'bigint', (c) => c.notNull())
    .execute();
}
