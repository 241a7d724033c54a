import type { Kysely } from 'kysely';

/**
 * Security scanning: advisories imported in the OSV format (each affected package indexed by
 * ecosystem and name), and each catalogued package version's scan and the advisories it matched.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('advisories')
    .addColumn('id', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('modified', 'bigint', (c) => c.notNull())
    .addColumn('published', 'bigint')
    .addColumn('withdrawn', 'bigint')
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('severity', 'varchar(16)', (c) => c.notNull())
    .addColumn('aliases', 'text', (c) => c.notNull())
    .addColumn('record', 'text', (c) => c.notNull())
    .addColumn('source', 'varchar(1024)', (c) => c.notNull())
    .addColumn('imported_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('advisories_imported_at').on('advisories').column('imported_at').execute();
  await db.schema
    .createTable('advisory_packages')
    .addColumn('advisory_id', 'varchar(255)', (c) => c.notNull().references('advisories.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('ecosystem', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(512)', (c) => c.notNull())
    .addColumn('affected', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('advisory_packages_pk', ['advisory_id', 'position'])
    .execute();
  await db.schema
    .createIndex('advisory_packages_package')
    .on('advisory_packages')
    .columns(['ecosystem', 'name'])
    .execute();
  await db.schema
    .createTable('package_scans')
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('lead_path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('package_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(512)', (c) => c.notNull())
    .addColumn('version', 'varchar(255)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('licenses', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('scanned_at', 'bigint', (c) => c.notNull())
    .addColumn('advisories_at', 'bigint', (c) => c.notNull())
    .addColumn('swept_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('package_scans_pk', ['repo_key', 'lead_path'])
    .execute();
  await db.schema
    .createTable('package_findings')
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('lead_path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('advisory_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('severity', 'varchar(16)', (c) => c.notNull())
    .addColumn('fixed_versions', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('package_findings_pk', ['repo_key', 'lead_path', 'advisory_id'])
    .execute();
  await db.schema.createIndex('package_findings_advisory').on('package_findings').column('advisory_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['package_findings', 'package_scans', 'advisory_packages', 'advisories']) {
    await db.schema.dropTable(table).execute();
  }
}
