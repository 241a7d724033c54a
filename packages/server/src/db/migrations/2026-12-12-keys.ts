import type { Kysely } from 'kysely';

/**
 * Named GPG and RSA key pairs (Keys Management) and TLS certificates — client certificates remote
 * repositories present, authorities trusted for outbound requests; private keys sealed with the
 * deployment's key. A remote repository names the client certificate it presents.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('key_pairs')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(8)', (c) => c.notNull())
    .addColumn('alias', 'varchar(128)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(128)', (c) => c.notNull())
    .addColumn('algorithm', 'varchar(64)', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(200)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('certificates')
    .addColumn('alias', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(8)', (c) => c.notNull())
    .addColumn('certificate', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('subject', 'varchar(1024)', (c) => c.notNull())
    .addColumn('issuer', 'varchar(1024)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(128)', (c) => c.notNull())
    .addColumn('valid_from', 'bigint', (c) => c.notNull())
    .addColumn('valid_until', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(200)', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('repositories')
    .addColumn('client_tls_certificate', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
}
