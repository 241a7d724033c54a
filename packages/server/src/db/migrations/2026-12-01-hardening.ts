import type { Kysely } from 'kysely';

/**
 * Hardening: what locked a user (wrong passwords or wrong second-factor codes), API keys kept
 * sealed with the deployment's key so that their owner can read them back, and the browser
 * sign-ins of command-line clients (npm's web login): a request a signed-in user approves.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('login_failures')
    .addColumn('cause', 'varchar(16)', (c) => c.notNull().defaultTo('password'))
    .execute();
  await db.schema.alterTable('access_tokens').addColumn('sealed', 'text').execute();
  await db.schema
    .createTable('web_logins')
    .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('done_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('client', 'varchar(32)', (c) => c.notNull())
    .addColumn('hostname', 'varchar(255)', (c) => c.notNull())
    .addColumn('source_ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('approved_by', 'varchar(64)')
    .addColumn('approved_at', 'bigint')
    .addColumn('done_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('web_logins').execute();
  await db.schema.alterTable('access_tokens').dropColumn('sealed').execute();
  await db.schema.alterTable('login_failures').dropColumn('cause').execute();
}
