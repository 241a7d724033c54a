import type { Kysely } from 'kysely';

/** Which directory or identity provider a user of an external realm came from (an LDAP setting's key, say). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('external_source', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
}
