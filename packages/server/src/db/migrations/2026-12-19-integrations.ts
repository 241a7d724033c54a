import type { Kysely } from 'kysely';

/**
 * Integrations: source-control accounts (their tokens sealed), and applications registered as
 * OAuth 2.0 clients with the users' grants, the authorisation codes and the tokens issued to them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vcs_integrations')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('vendor', 'varchar(32)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('username', 'varchar(256)', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('products', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('callback_url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('platform_base_url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('oauth_grants')
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scope', 'varchar(512)', (c) => c.notNull())
    .addColumn('granted_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('oauth_grants_pk', ['client_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('redirect_uri', 'varchar(2048)', (c) => c.notNull())
    .addColumn('code_challenge', 'varchar(128)', (c) => c.notNull())
    .addColumn('scope', 'varchar(512)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createTable('oauth_client_tokens')
    .addColumn('token_id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(64)', (c) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull())
    .execute();
}
