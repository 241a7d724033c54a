import type { Kysely } from 'kysely';

/** Projects, their members and the repositories assigned to them; the default project (spec §9). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('display_name', 'varchar(256)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('project_members')
    .addColumn('project_key', 'varchar(128)', (c) => c.notNull().references('projects.key').onDelete('cascade'))
    .addColumn('principal_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('principal_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('role', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_members_pk', ['project_key', 'principal_type', 'principal_name'])
    .execute();
  await db.schema
    .createIndex('project_members_principal')
    .on('project_members')
    .columns(['principal_type', 'principal_name'])
    .execute();

  await db.schema.alterTable('repositories').addColumn('project_key', 'varchar(128)').execute();

  const now = Date.now();
  await db
    .insertInto('projects')
    .values({ key: 'dflt', display_name: 'Default Project', description: '', created_at: now, updated_at: now })
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('repositories').dropColumn('project_key').execute();
  await db.schema.dropTable('project_members').execute();
  await db.schema.dropTable('projects').execute();
}
