import type { Kysely } from 'kysely';

/**
 * Licence buckets of a management deployment, their licences (who holds each), the used count
 * over time; and what each registered deployment last reported of its nodes, projects and licences.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('license_buckets')
    .addColumn('id', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('edition', 'varchar(32)', (c) => c.notNull())
    .addColumn('licensee', 'varchar(200)', (c) => c.notNull())
    .addColumn('issued_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('issuer', 'varchar(16)', (c) => c.notNull())
    .addColumn('parent_id', 'varchar(100)', (c) => c.references('license_buckets.id').onDelete('cascade'))
    .addColumn('bucket_key', 'text', (c) => c.notNull())
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('added_at', 'bigint', (c) => c.notNull())
    .addColumn('added_by', 'varchar(256)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('license_bucket_licenses')
    .addColumn('id', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('bucket_id', 'varchar(100)', (c) => c.notNull().references('license_buckets.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('key_text', 'text', (c) => c.notNull())
    .addColumn('assignee_kind', 'varchar(16)')
    .addColumn('assignee', 'varchar(200)')
    .addColumn('assigned_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('license_bucket_licenses_bucket')
    .on('license_bucket_licenses')
    .columns(['bucket_id', 'position'])
    .execute();
  await db.schema
    .createTable('license_bucket_usage')
    .addColumn('bucket_id', 'varchar(100)', (c) => c.notNull().references('license_buckets.id').onDelete('cascade'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('license_bucket_usage_at')
    .on('license_bucket_usage')
    .columns(['bucket_id', 'at'])
    .execute();
  await db.schema
    .alterTable('deployments')
    .addColumn('nodes', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('deployments')
    .addColumn('projects', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('deployments')
    .addColumn('license_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}
