import type { Kysely } from 'kysely';

/**
 * The package catalogue: one row per package version per repository that holds its lead file (an
 * npm tarball, a wheel …), read off the file by its format's indexer. Packages are their rows
 * grouped by type and name.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('package_versions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('package_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(512)', (c) => c.notNull())
    .addColumn('lowercase_name', 'varchar(512)', (c) => c.notNull())
    .addColumn('version', 'varchar(256)', (c) => c.notNull())
    .addColumn('repo_key', 'varchar(128)', (c) => c.notNull())
    .addColumn('lead_path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('licenses', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('dependencies', 'text', (c) => c.notNull())
    .addColumn('readme', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('package_versions_lead')
    .unique()
    .on('package_versions')
    .columns(['repo_key', 'lead_path'])
    .execute();
  await db.schema
    .createIndex('package_versions_name')
    .on('package_versions')
    .columns(['package_type', 'lowercase_name'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('package_versions').execute();
}
