import type { Kysely } from 'kysely';

/**
 * The security scanning roles a group gives its members: managing watches (and ignore rules),
 * managing policies, viewing policies and watches. Administrators have all three.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['watch_manager', 'policy_manager', 'policy_viewer'])
    await db.schema
      .alterTable('groups')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['watch_manager', 'policy_manager', 'policy_viewer'])
    await db.schema.alterTable('groups').dropColumn(column).execute();
}
