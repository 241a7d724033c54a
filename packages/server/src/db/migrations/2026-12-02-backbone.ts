import type { Kysely } from 'kysely';

/**
 * The outbox and the jobs as other systems rely on them: a receipt counts its attempts and waits
 * for its next one (backoff) or ends dead with its last error; each consumer keeps a position in
 * the outbox below which every event is settled, so that a poll reads only what is new; every
 * run of a scheduled job leaves a history row (node, start, end, outcome, message).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('event_receipts')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('event_receipts').addColumn('next_attempt_at', 'bigint').execute();
  await db.schema.alterTable('event_receipts').addColumn('dead_at', 'bigint').execute();
  await db.schema.alterTable('event_receipts').addColumn('last_error', 'text').execute();
  await db.schema.createIndex('event_receipts_dead').on('event_receipts').columns(['consumer', 'dead_at']).execute();

  await db.schema
    .createTable('outbox_consumers')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // consumers that ran before keep every event they have not settled: they start at the beginning
  const now = Date.now();
  const known = await db.selectFrom('event_receipts').select('consumer').distinct().execute();
  for (const { consumer } of known as { consumer: string }[])
    await db.insertInto('outbox_consumers').values({ name: consumer, position: 0, created_at: now }).execute();

  await db.schema
    .createTable('job_runs')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('job', 'varchar(128)', (c) => c.notNull())
    .addColumn('node', 'varchar(256)', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('message', 'text')
    .execute();
  await db.schema.createIndex('job_runs_started').on('job_runs').columns(['started_at', 'id']).execute();
  await db.schema.createIndex('job_runs_job').on('job_runs').columns(['job', 'started_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_runs').execute();
  await db.schema.dropTable('outbox_consumers').execute();
  await db.schema.dropIndex('event_receipts_dead').execute();
  for (const column of ['last_error', 'dead_at', 'next_attempt_at', 'attempts'])
    await db.schema.alterTable('event_receipts').dropColumn(column).execute();
}
