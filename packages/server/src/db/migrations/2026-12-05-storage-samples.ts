import type { Kysely } from 'kysely';

/** A daily sample of each repository's files and bytes, for the storage summary's growth chart. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('storage_samples')
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('repo_key', 'varchar(128)', (c) => c.notNull())
    .addColumn('files', 'bigint', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('storage_samples_pk', ['day', 'repo_key'])
    .execute();
}
