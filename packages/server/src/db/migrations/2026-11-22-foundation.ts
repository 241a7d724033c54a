import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(256)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(320)')
    .addColumn('password_hash', 'varchar(512)')
    .addColumn('admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disable_ui_access', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('realm', 'varchar(64)', (c) => c.notNull().defaultTo('internal'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_login_at', 'bigint')
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('idle_timeout_ms', 'bigint', (c) => c.notNull())
    .addColumn('remember_me', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('user_name', 'varchar(256)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .execute();

  await db.schema
    .createTable('nodes')
    .addColumn('node_id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('host', 'varchar(256)', (c) => c.notNull())
    .addColumn('version', 'varchar(64)', (c) => c.notNull())
    .addColumn('services', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('last_heartbeat', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('licenses')
    .addColumn('id', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('key_text', 'text', (c) => c.notNull())
    .addColumn('edition', 'varchar(32)', (c) => c.notNull())
    .addColumn('licensee', 'varchar(200)', (c) => c.notNull())
    .addColumn('issued_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('issuer', 'varchar(16)', (c) => c.notNull())
    .addColumn('installed_at', 'bigint', (c) => c.notNull())
    .addColumn('installed_by', 'varchar(256)', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('adoption_metrics')
    .addColumn('feature_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('action', 'varchar(200)', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('adoption_metrics_pk', ['feature_name', 'action'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['adoption_metrics', 'settings', 'licenses', 'nodes', 'login_failures', 'sessions', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
