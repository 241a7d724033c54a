import type { Kysely } from 'kysely';

/**
 * Where advisories are fetched from on a schedule: an OSV export (a zip of records) or a JSON
 * record list at a URL, every so many hours, with how the last fetch went and what the server
 * said the content was (ETag, Last-Modified), so that an unchanged export is not imported again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('advisory_sources')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('interval_hours', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
    .addColumn('last_run_at', 'bigint')
    .addColumn('last_outcome', 'varchar(16)')
    .addColumn('last_message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('etag', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_modified', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('advisory_sources').execute();
}
