import type { Kysely } from 'kysely';

/**
 * Operations: the address at which each node answers the others (a node's logs are read through
 * it), and support bundles (a zip each, made by one node, kept a set number of days).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('nodes').addColumn('address', 'varchar(512)').execute();

  await db.schema
    .createTable('support_bundles')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(256)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('service', 'varchar(32)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('parameters', 'text', (c) => c.notNull())
    .addColumn('node_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('file', 'varchar(512)')
    .addColumn('size', 'bigint')
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('support_bundles_created').on('support_bundles').column('created_at').execute();
}
