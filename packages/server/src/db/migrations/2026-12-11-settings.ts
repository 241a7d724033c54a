import type { Kysely } from 'kysely';

/**
 * Values the console keeps per user (the onboarding's flags), the HTTP proxies of outbound
 * requests (their passwords sealed), and the proxy a remote repository goes through.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_custom_data')
    .addColumn('user_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('data_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_custom_data_pk', ['user_name', 'data_key'])
    .execute();
  await db.schema
    .createTable('proxies')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('host', 'varchar(253)', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('username', 'varchar(256)', (c) => c.notNull())
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('nt_host', 'varchar(253)', (c) => c.notNull())
    .addColumn('domain', 'varchar(253)', (c) => c.notNull())
    .addColumn('default_proxy', 'integer', (c) => c.notNull())
    .addColumn('redirect_to_hosts', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('repositories')
    .addColumn('proxy_key', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
}
