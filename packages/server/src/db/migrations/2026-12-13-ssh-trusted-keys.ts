import type { Kysely } from 'kysely';

/**
 * SSH public keys users register to sign in over SSH (one key, one user), and the trusted keys —
 * OpenPGP public keys of others, against which detached signatures of artifacts are checked.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ssh_keys')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'varchar(128)', (c) => c.notNull())
    .addColumn('algorithm', 'varchar(64)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('ssh_keys_user').on('ssh_keys').column('user_id').execute();
  await db.schema
    .createTable('trusted_keys')
    .addColumn('kid', 'varchar(16)', (c) => c.primaryKey())
    .addColumn('alias', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('fingerprint', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('algorithm', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_ids', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('issued_on', 'bigint', (c) => c.notNull())
    .addColumn('valid_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(200)', (c) => c.notNull())
    .execute();
}
