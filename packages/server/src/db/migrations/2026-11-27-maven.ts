import type { Kysely } from 'kysely';

/**
 * Maven repositories' deploy rules — the checksum policy (Artifactory's `checksumPolicyType`),
 * the POM consistency check, whether a release may be deployed again — and each catalogued
 * version's type-specific fields (Maven coordinates, image tags …) as JSON.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('repositories')
    .addColumn('checksum_policy', 'varchar(32)', (c) => c.notNull().defaultTo('client-checksums'))
    .execute();
  await db.schema
    .alterTable('repositories')
    .addColumn('suppress_pom_checks', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('repositories')
    .addColumn('redeploy_releases', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('package_versions')
    .addColumn('fields', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('package_versions').dropColumn('fields').execute();
  for (const column of ['redeploy_releases', 'suppress_pom_checks', 'checksum_policy'])
    await db.schema.alterTable('repositories').dropColumn(column).execute();
}
