import type { Kysely } from 'kysely';

/**
 * What the security findings needed: the subject (issuer and `sub`) an OpenID account is tied to,
 * and the SAML assertions already consumed (kept until they expire, so that none is taken twice).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('external_subject', 'varchar(1024)').execute();
  await db.schema.createIndex('users_external_subject').unique().on('users').column('external_subject').execute();
  await db.schema
    .createTable('saml_assertions')
    .addColumn('id', 'varchar(512)', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
