import type { Kysely } from 'kysely';

/**
 * Release bundles: immutable, signed sets of artifacts (each version's manifest lists every path
 * with its SHA-256), the environments they are promoted through (and the repositories each
 * environment holds), their promotions and their distributions to paired deployments; and the
 * holds that keep an artifact from being deleted or overwritten while something (a bundle) holds it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('item_holds')
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('holder', 'varchar(200)', (c) => c.notNull())
    .addPrimaryKeyConstraint('item_holds_pk', ['repo_key', 'path', 'holder'])
    .execute();
  await db.schema.createIndex('item_holds_holder').on('item_holds').column('holder').execute();

  await db.schema
    .createTable('environments')
    .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
    .execute();
  // every deployment starts with the three environments a release goes through
  const now = Date.now();
  await db
    .insertInto('environments')
    .values(
      ['DEV', 'QA', 'PROD'].map((name, position) => ({
        name,
        description: '',
        position,
        created_at: now,
        created_by: '_system',
      })),
    )
    .execute();
  await db.schema
    .createTable('environment_repositories')
    .addColumn('environment', 'varchar(32)', (c) => c.notNull().references('environments.name').onDelete('cascade'))
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('environment_repositories_pk', ['environment', 'repo_key'])
    .execute();

  await db.schema
    .createTable('release_bundle_versions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('version', 'varchar(32)', (c) => c.notNull())
    .addColumn('project_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('source_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('sources', 'text', (c) => c.notNull())
    .addColumn('signing_key', 'varchar(128)', (c) => c.notNull())
    .addColumn('key_fingerprint', 'varchar(128)', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('manifest_sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('artifact_count', 'integer', (c) => c.notNull())
    .addColumn('total_size', 'bigint', (c) => c.notNull())
    .addColumn('origin', 'varchar(16)', (c) => c.notNull())
    .addColumn('origin_deployment', 'varchar(256)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
    .addUniqueConstraint('release_bundle_versions_name_version', ['name', 'version'])
    .execute();
  await db.schema
    .createTable('release_bundle_artifacts')
    .addColumn('version_id', 'varchar(36)', (c) =>
      c.notNull().references('release_bundle_versions.id').onDelete('cascade'),
    )
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('package_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('source', 'varchar(300)', (c) => c.notNull())
    .addPrimaryKeyConstraint('release_bundle_artifacts_pk', ['version_id', 'repo_key', 'path'])
    .execute();
  await db.schema
    .createTable('release_bundle_promotions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('version_id', 'varchar(36)', (c) =>
      c.notNull().references('release_bundle_versions.id').onDelete('cascade'),
    )
    .addColumn('environment', 'varchar(32)', (c) => c.notNull())
    .addColumn('operation', 'varchar(8)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('repositories', 'text', (c) => c.notNull())
    .addColumn('artifact_count', 'integer', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('release_bundle_promotions_version')
    .on('release_bundle_promotions')
    .columns(['version_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('release_bundle_distributions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('version_id', 'varchar(36)', (c) =>
      c.notNull().references('release_bundle_versions.id').onDelete('cascade'),
    )
    .addColumn('deployment_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('target_name', 'varchar(256)', (c) => c.notNull())
    .addColumn('action', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('files_total', 'integer', (c) => c.notNull())
    .addColumn('files_done', 'integer', (c) => c.notNull())
    .addColumn('files_sent', 'integer', (c) => c.notNull())
    .addColumn('bytes_sent', 'bigint', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('release_bundle_distributions_version')
    .on('release_bundle_distributions')
    .columns(['version_id', 'created_at'])
    .execute();
}
