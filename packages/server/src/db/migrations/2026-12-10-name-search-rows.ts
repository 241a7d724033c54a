import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * SQLite: the trigram index of item names (FTS5) finds its row of an item by the row's number,
 * kept beside the item's id — its `item_id` column is not indexed, so removing or renaming an item
 * read the whole index, and deleting many items took time in the square of their number.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) return;
  await sql`create table item_name_rows (item_id varchar(36) primary key, fts_row integer not null)`.execute(db);
  await sql`insert into item_name_rows (item_id, fts_row) select item_id, rowid from items_name_search`.execute(db);
  for (const trigger of ['items_name_search_insert', 'items_name_search_delete', 'items_name_search_rename'])
    await sql`drop trigger ${sql.ref(trigger)}`.execute(db);
  await sql`create trigger items_name_search_insert after insert on items when new.folder = 0 begin
      insert into items_name_search (name, item_id) values (new.name, new.id);
      insert into item_name_rows (item_id, fts_row) values (new.id, last_insert_rowid());
    end`.execute(db);
  await sql`create trigger items_name_search_delete after delete on items when old.folder = 0 begin
      delete from items_name_search where rowid = (select fts_row from item_name_rows where item_id = old.id);
      delete from item_name_rows where item_id = old.id;
    end`.execute(db);
  await sql`create trigger items_name_search_rename after update of name on items when new.folder = 0 begin
      update items_name_search set name = new.name
        where rowid = (select fts_row from item_name_rows where item_id = new.id);
    end`.execute(db);
}
