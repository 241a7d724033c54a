import type { Kysely } from 'kysely';

/**
 * Deletions of repositories with their content, shared by every node: their progress answers on
 * any node, and one whose node died is taken up by another once its lease has run out.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('repository_deletions')
    .addColumn('repo_key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('files', 'bigint', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('deleted_files', 'bigint', (c) => c.notNull())
    .addColumn('deleted_bytes', 'bigint', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('holder', 'varchar(200)', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'varchar(200)', (c) => c.notNull())
    .addColumn('source_ip', 'varchar(100)', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
