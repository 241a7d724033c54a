import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * What searches over millions of items need: item names found by prefix (a b-tree) and by any
 * part (SQLite: an FTS5 trigram index kept by triggers; PostgreSQL: a pg_trgm GIN index), MD5s
 * indexed like SHA-1s, property criteria answered from an index alone, and the Java classes of deployed archives (the class search).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('binaries_md5').on('binaries').column('md5').execute();
  if (!isPostgres(db)) {
    // SQLite: a property criterion reads the item ids off the index alone
    await db.schema.dropIndex('item_properties_key_value').execute();
    await db.schema
      .createIndex('item_properties_key_value')
      .on('item_properties')
      .columns(['key', 'value', 'item_id'])
      .execute();
  }

  await db.schema
    .createTable('archive_classes')
    .addColumn('item_id', 'varchar(36)', (c) => c.notNull().references('items.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('path', 'varchar(1024)', (c) => c.notNull())
    .addColumn('inner_class', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('archive_classes_pk', ['item_id', 'path'])
    .execute();
  await db.schema.createIndex('archive_classes_name').on('archive_classes').column('name').execute();

  if (isPostgres(db)) {
    // keys and values go together (a key has its own values): without this the planner multiplies
    // their frequencies, misjudges how many items a property criterion keeps, and reads whole repositories
    const version = await sql<{ v: string }>`select current_setting('server_version_num') as v`.execute(db);
    if (Number(version.rows[0]?.v) >= 140000)
      await sql`create statistics item_properties_key_value_mcv (mcv) on key, substr(value, 1, 256) from item_properties`.execute(
        db,
      );
    // names by their beginning (LIKE 'abc%'), whatever the database's collation
    await sql`create index items_name_pattern on items (name text_pattern_ops)`.execute(db);
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index items_name_trgm on items using gin (name gin_trgm_ops)`.execute(db);
    await sql`create index archive_classes_name_trgm on archive_classes using gin (name gin_trgm_ops)`.execute(db);
    return;
  }
  await db.schema.createIndex('items_name').on('items').column('name').execute();
  // a name's trigrams, so that `*part*` is a lookup; case-sensitive like GLOB itself
  await sql`create virtual table items_name_search using fts5(name, item_id unindexed, tokenize = 'trigram case_sensitive 1')`.execute(
    db,
  );
  await sql`insert into items_name_search (name, item_id) select name, id from items where folder = 0`.execute(db);
  await sql`create trigger items_name_search_insert after insert on items when new.folder = 0 begin
      insert into items_name_search (name, item_id) values (new.name, new.id);
    end`.execute(db);
  await sql`create trigger items_name_search_delete after delete on items when old.folder = 0 begin
      delete from items_name_search where item_id = old.id;
    end`.execute(db);
  await sql`create trigger items_name_search_rename after update of name on items when new.folder = 0 begin
      update items_name_search set name = new.name where item_id = new.id;
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index items_name_trgm`.execute(db);
    await sql`drop index items_name_pattern`.execute(db);
    await sql`drop statistics if exists item_properties_key_value_mcv`.execute(db);
  } else {
    for (const trigger of ['items_name_search_insert', 'items_name_search_delete', 'items_name_search_rename'])
      await sql`drop trigger ${sql.ref(trigger)}`.execute(db);
    await sql`drop table items_name_search`.execute(db);
    await db.schema.dropIndex('items_name').execute();
  }
  await db.schema.dropTable('archive_classes').execute();
  if (!isPostgres(db)) {
    await db.schema.dropIndex('item_properties_key_value').execute();
    await db.schema.createIndex('item_properties_key_value').on('item_properties').columns(['key', 'value']).execute();
  }
  await db.schema.dropIndex('binaries_md5').execute();
}
