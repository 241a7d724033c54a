import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('repositories')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('rclass', 'varchar(16)', (c) => c.notNull())
    .addColumn('package_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('includes_pattern', 'text', (c) => c.notNull())
    .addColumn('excludes_pattern', 'text', (c) => c.notNull())
    .addColumn('repo_layout_ref', 'varchar(64)', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('username', 'varchar(256)', (c) => c.notNull())
    .addColumn('password', 'text')
    .addColumn('members', 'text', (c) => c.notNull())
    .addColumn('default_deployment_repo', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('binaries')
    .addColumn('sha256', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('sha1', 'varchar(40)', (c) => c.notNull())
    .addColumn('md5', 'varchar(32)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('ref_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('binaries_sha1').on('binaries').column('sha1').execute();
  await db.schema.createIndex('binaries_ref_count').on('binaries').column('ref_count').execute();

  await db.schema
    .createTable('items')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('repo_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('parent', 'varchar(1024)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('folder', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mime_type', 'varchar(128)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(256)', (c) => c.notNull())
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .addColumn('modified_by', 'varchar(256)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('items_repo_path').on('items').columns(['repo_key', 'path']).unique().execute();
  await db.schema.createIndex('items_children').on('items').columns(['repo_key', 'parent', 'folder', 'name']).execute();
  await db.schema.createIndex('items_sha256').on('items').column('sha256').execute();

  await db.schema
    .createTable('item_properties')
    .addColumn('item_id', 'varchar(36)', (c) => c.notNull().references('items.id').onDelete('cascade'))
    .addColumn('key', 'varchar(255)', (c) => c.notNull())
    .addColumn('value', 'varchar(4000)', (c) => c.notNull())
    .addPrimaryKeyConstraint('item_properties_pk', ['item_id', 'key', 'value'])
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('type', 'varchar(64)', (c) => c.notNull())
    .addColumn('repo_key', 'varchar(64)')
    .addColumn('path', 'varchar(1024)')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('actor', 'varchar(256)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_seq').on('events').column('seq').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['events', 'item_properties', 'items', 'binaries', 'repositories']) {
    await db.schema.dropTable(table).execute();
  }
}
