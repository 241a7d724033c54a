import type { Kysely } from 'kysely';

/**
 * Build info as CI tools publish it: the documents live in the `artifactory-build-info`
 * repository (made with the first build; browsable, searchable, governed by the build resources
 * of permission targets); these tables index them — each build run, its modules' artifacts and dependencies by checksum
 * (what produced or used a file), and its promotions.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('builds')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('number', 'varchar(255)', (c) => c.notNull())
    .addColumn('started', 'varchar(64)', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('project', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('builds_name_number').on('builds').columns(['name', 'number', 'started_at']).execute();

  await db.schema
    .createTable('build_files')
    .addColumn('build_id', 'varchar(36)', (c) => c.notNull().references('builds.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('module', 'varchar(512)', (c) => c.notNull())
    .addColumn('name', 'varchar(512)', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('sha1', 'varchar(40)')
    .addColumn('sha256', 'varchar(64)')
    .addColumn('md5', 'varchar(32)')
    .execute();
  await db.schema.createIndex('build_files_build').on('build_files').column('build_id').execute();
  await db.schema.createIndex('build_files_sha1').on('build_files').column('sha1').execute();

  await db.schema
    .createTable('build_promotions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('build_id', 'varchar(36)', (c) => c.notNull().references('builds.id').onDelete('cascade'))
    .addColumn('status', 'varchar(128)', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull())
    .addColumn('repository', 'varchar(64)', (c) => c.notNull())
    .addColumn('ci_user', 'varchar(256)', (c) => c.notNull())
    .addColumn('user', 'varchar(256)', (c) => c.notNull())
    .addColumn('timestamp', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('build_promotions_build').on('build_promotions').column('build_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['build_promotions', 'build_files', 'builds']) await db.schema.dropTable(table).execute();
}
