import type { Kysely } from 'kysely';

/**
 * OpenPGP signing keys: the deployment's (scope '') and those of repositories that have their
 * own (scope = the repository key). The private key is kept sealed with the deployment's key.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signing_keys')
    .addColumn('scope', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('fingerprint', 'varchar(80)', (c) => c.notNull())
    .addColumn('algorithm', 'varchar(40)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(400)', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(200)', (c) => c.notNull())
    .execute();
}
