import type { Kysely } from 'kysely';

/** Refreshable access tokens: the SHA-256 of the refresh token that replaces the pair once. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('access_tokens').addColumn('refresh_hash', 'varchar(64)').execute();
  await db.schema.createIndex('access_tokens_refresh').on('access_tokens').column('refresh_hash').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('access_tokens_refresh').execute();
  await db.schema.alterTable('access_tokens').dropColumn('refresh_hash').execute();
}
