import type { Kysely } from 'kysely';

/**
 * Access federation: the logical clock of each federated entity on this deployment (kept for a
 * deleted one too, as its tombstone), the conflicts it settled, and — on a management
 * deployment — the federations it configured, one row per sending member.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('federation_clocks')
    .addColumn('entity_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(512)', (c) => c.notNull())
    .addColumn('clock', 'bigint', (c) => c.notNull())
    .addColumn('origin', 'varchar(64)', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull())
    .addColumn('base_clock', 'bigint', (c) => c.notNull())
    .addColumn('base_origin', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('federation_clocks_pk', ['entity_type', 'name'])
    .execute();
  await db.schema
    .createTable('federation_conflicts')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('entity_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('name', 'varchar(512)', (c) => c.notNull())
    .addColumn('kept', 'varchar(8)', (c) => c.notNull())
    .addColumn('local_clock', 'varchar(100)', (c) => c.notNull())
    .addColumn('remote_clock', 'varchar(100)', (c) => c.notNull())
    .addColumn('peer', 'varchar(200)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('federation_conflicts_at').on('federation_conflicts').column('at').execute();
  await db.schema
    .createTable('federations')
    .addColumn('source_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('group_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('topology', 'varchar(8)', (c) => c.notNull())
    .addColumn('targets', 'text', (c) => c.notNull())
    .addColumn('entity_types', 'text', (c) => c.notNull())
    .addColumn('permissions_filter', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
