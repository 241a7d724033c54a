import type { Kysely } from 'kysely';

/** The last TOTP time step used per user, so that a code works once. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('mfa_last_step', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('mfa_last_step').execute();
}
