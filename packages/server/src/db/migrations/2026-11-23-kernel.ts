import { PostgresAdapter, sql, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Job leases (one node runs each scheduled run), outbox receipts (consumers claim undelivered
 * events under a lease), per-repository usage counters, and the indexes that keep subtree
 * listings and property lookups off full scans.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(256)', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('last_slot', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('event_receipts')
    .addColumn('consumer', 'varchar(64)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(36)', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('holder', 'varchar(256)', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .addPrimaryKeyConstraint('event_receipts_pk', ['consumer', 'event_id'])
    .execute();

  await db.schema
    .createTable('repository_usage')
    .addColumn('repo_key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('files', 'bigint', (c) => c.notNull())
    .addColumn('folders', 'bigint', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .execute();
  await sql`
    insert into repository_usage (repo_key, files, folders, size)
    select repo_key,
           sum(case when folder = 0 then 1 else 0 end),
           sum(case when folder = 1 then 1 else 0 end),
           sum(case when folder = 0 then size else 0 end)
    from items group by repo_key`.execute(db);

  if (isPostgres(db)) {
    // byte order, so that `path >= 'a/' and path < 'a0'` is an index range whatever the database's locale
    await sql`create index items_repo_path_c on items (repo_key, path collate "C")`.execute(db);
    // values may be longer than a btree entry: the index holds their first 256 characters
    await sql`create index item_properties_key_value on item_properties (key, substr(value, 1, 256))`.execute(db);
  } else {
    await db.schema.createIndex('item_properties_key_value').on('item_properties').columns(['key', 'value']).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`drop index items_repo_path_c`.execute(db);
  await db.schema.dropIndex('item_properties_key_value').execute();
  for (const table of ['repository_usage', 'event_receipts', 'job_leases']) await db.schema.dropTable(table).execute();
}
