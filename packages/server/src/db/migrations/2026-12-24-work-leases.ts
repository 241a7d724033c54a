import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * The last leases outside the durable-work kernel go. An outbox consumer is one kernel task held
 * by one node at a time, so its receipts record only what came of each event; a webhook
 * handler's queue is one kernel task too, so a delivery records only its state. A task learns
 * that it was submitted to again while it ran (`rerun`), so that nothing added meanwhile waits;
 * a kind names the consumer it follows (`outbox:<consumer>`), so it takes a consumer's name.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('work_tasks')
    .addColumn('rerun', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    await db.schema
      .alterTable('work_tasks')
      .alterColumn('kind', (c) => c.setDataType('varchar(100)'))
      .execute();
  for (const table of ['event_receipts', 'webhook_deliveries']) {
    await db.schema.alterTable(table).dropColumn('holder').execute();
    await db.schema.alterTable(table).dropColumn('lease_until').execute();
  }
}
