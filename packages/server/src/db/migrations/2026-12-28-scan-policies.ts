import type { Kysely } from 'kysely';

/**
 * Security policies: what a scanned version must not have (vulnerabilities from a severity on,
 * licences banned or not allowed) and what follows (downloads blocked, builds failed, a webhook
 * told); watches that apply policies to repositories and builds; and ignore rules that set a
 * finding aside, with a reason and an expiry.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // the package of an image an advisory was found in (empty for a package version itself)
  await db.schema
    .alterTable('package_findings')
    .addColumn('component', 'varchar(512)', (c) => c.notNull().defaultTo(''))
    .execute();
  // what an image installs, as its layers were read (JSON), so that matching it again reads no layer
  await db.schema
    .alterTable('package_scans')
    .addColumn('installed', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // what each node reads every few seconds: the versions scanned since it last looked
  await db.schema.createIndex('package_scans_scanned_at').on('package_scans').column('scanned_at').execute();
  await db.schema
    .createTable('scan_policies')
    .addColumn('name', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('scan_watches')
    .addColumn('name', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('resources', 'text', (c) => c.notNull())
    .addColumn('policies', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('scan_ignore_rules')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('filters', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('package_scans_scanned_at').execute();
  await db.schema.alterTable('package_scans').dropColumn('installed').execute();
  await db.schema.alterTable('package_findings').dropColumn('component').execute();
  for (const table of ['scan_ignore_rules', 'scan_watches', 'scan_policies']) {
    await db.schema.dropTable(table).execute();
  }
}
