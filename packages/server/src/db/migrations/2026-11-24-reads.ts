import type { Kysely } from 'kysely';

/**
 * The configuration generation (bumped by every recorded change, so that each process knows when
 * its caches of repositories, settings and rights are stale) and download statistics per item.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('generations')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('generations').values({ name: 'config', value: 0 }).execute();
  await db.schema
    .alterTable('items')
    .addColumn('download_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('items').addColumn('last_downloaded', 'bigint').execute();
  await db.schema.alterTable('items').addColumn('last_downloaded_by', 'varchar(256)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['last_downloaded_by', 'last_downloaded', 'download_count']) {
    await db.schema.alterTable('items').dropColumn(column).execute();
  }
  await db.schema.dropTable('generations').execute();
}
