import type { Kysely } from 'kysely';

/** Groups, permission targets, tokens, the audit trail and the columns sign-in flows need. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('groups')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('auto_join', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('admin_privileges', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('realm', 'varchar(64)', (c) => c.notNull().defaultTo('internal'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('group_members')
    .addColumn('group_name', 'varchar(64)', (c) => c.notNull().references('groups.name').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('group_members_pk', ['group_name', 'user_id'])
    .execute();
  await db.schema.createIndex('group_members_user').on('group_members').column('user_id').execute();

  await db.schema
    .createTable('permission_targets')
    .addColumn('name', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('resources', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('permission_grants')
    .addColumn('target_name', 'varchar(128)', (c) =>
      c.notNull().references('permission_targets.name').onDelete('cascade'),
    )
    .addColumn('resource', 'varchar(16)', (c) => c.notNull())
    .addColumn('principal_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('principal_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('actions', 'varchar(64)', (c) => c.notNull())
    .addPrimaryKeyConstraint('permission_grants_pk', ['target_name', 'resource', 'principal_type', 'principal_name'])
    .execute();
  await db.schema
    .createIndex('permission_grants_principal')
    .on('permission_grants')
    .columns(['principal_type', 'principal_name'])
    .execute();

  await db.schema
    .createTable('access_tokens')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('description', 'varchar(1024)', (c) => c.notNull())
    .addColumn('scope', 'varchar(1024)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('access_tokens_user').on('access_tokens').column('user_id').execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'varchar(256)', (c) => c.notNull())
    .addColumn('source_ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('category', 'varchar(32)', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target', 'varchar(512)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_events_at').on('audit_events').columns(['at', 'id']).execute();
  await db.schema.createIndex('audit_events_category').on('audit_events').columns(['category', 'at']).execute();

  /** Reset links, invitations and half-finished two-factor sign-ins: stored by SHA-256, used once. */
  await db.schema
    .createTable('one_time_tokens')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();

  // as a fresh install of the usual products: anonymous users may read everything, once anonymous access is on
  const now = Date.now();
  const anything = { repositories: ['ANY'], includes: ['**'], excludes: [] };
  await db
    .insertInto('permission_targets')
    .values({ name: 'Anything', resources: JSON.stringify({ repo: anything }), created_at: now, updated_at: now })
    .execute();
  await db
    .insertInto('permission_grants')
    .values({
      target_name: 'Anything',
      resource: 'repo',
      principal_type: 'user',
      principal_name: 'anonymous',
      actions: 'read',
    })
    .execute();

  await db.schema.alterTable('users').addColumn('mfa_secret', 'varchar(128)').execute();
  await db.schema.alterTable('users').addColumn('mfa_enrolled_at', 'bigint').execute();
  await db.schema.alterTable('users').addColumn('password_changed_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['password_changed_at', 'mfa_enrolled_at', 'mfa_secret']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
  for (const table of [
    'one_time_tokens',
    'audit_events',
    'access_tokens',
    'permission_grants',
    'permission_targets',
    'group_members',
    'groups',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
