import type { Kysely } from 'kysely';

/**
 * Which directory or identity provider a user of an external realm came from (an LDAP setting's
 * key, say), and the sign-in requests sent to identity providers.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('external_source', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  await upSsoRequests(db);
}

/**
 * Sign-in requests sent to identity providers: found again by the state (its SHA-256) when the
 * browser comes back, used once. Kept in the database so that any node may take the answer.
 */
async function upSsoRequests(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sso_requests')
    .addColumn('state_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('provider', 'varchar(64)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
