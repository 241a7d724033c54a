import type { Kysely } from 'kysely';

/**
 * How long a remote repository keeps its cached metadata (npm packuments and the like) before it
 * asks its upstream again: Artifactory's "metadata retrieval cache period", 7200 s by default.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('repositories')
    .addColumn('metadata_max_age_secs', 'bigint', (c) => c.notNull().defaultTo(7200))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('repositories').dropColumn('metadata_max_age_secs').execute();
}
