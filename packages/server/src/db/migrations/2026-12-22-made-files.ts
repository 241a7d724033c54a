import type { Kysely } from 'kysely';

/**
 * What a format makes from stored files and shares between the workers and nodes (a virtual
 * Debian repository's merged indexes): each file's content in the binary store, retained like an
 * item's, under a key naming what it was made from; and who is making a key now, under a lease.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('made_files')
    .addColumn('made_key', 'varchar(1000)', (c) => c.notNull())
    .addColumn('name', 'varchar(500)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('content_type', 'varchar(200)', (c) => c.notNull())
    .addColumn('made_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('made_files_pk', ['made_key', 'name'])
    .execute();
  await db.schema.createIndex('made_files_made_at').on('made_files').column('made_at').execute();
  await db.schema
    .createTable('made_claims')
    .addColumn('made_key', 'varchar(1000)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(200)', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .execute();
}
