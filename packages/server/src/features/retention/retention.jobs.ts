import type { FastifyInstance } from 'fastify';
import { openColdStore } from '../../storage/store-factory.js';
import type { BinaryStore } from '../../storage/binary-store.js';
import { collectColdGarbage, expireArchived, sampleArchive } from './retention.archive.js';
import { ArchiveRunner } from './retention.executions.js';
import { nextRuns } from './retention.policies.js';

/** A cold content unreferenced for this long is removed by the cold garbage collection. */
const COLD_GC_GRACE_MS = 60 * 60_000;

/**
 * Opens the cold store and the runner of archive runs (tasks of the durable-work kernel), and the
 * jobs: every minute (on one node) the due policies start, expired archived items go; once
 * a day the archive's figures are sampled and unused cold contents removed.
 */
export async function registerRetention(app: FastifyInstance): Promise<Archive> {
  const { db, log, config } = app;
  const cold = await openColdStore(config, app.nodeId);
  const context = {
    db,
    hot: app.binaries,
    cold,
    log,
    work: app.work,
    releaseGraceMs: config.archiveReleaseGraceMs,
  };
  const runner = new ArchiveRunner(context);

  app.jobs.register('archive-policies', '* * * * *', async () => {
    const now = Date.now();
    const due = await db
      .selectFrom('archive_policies')
      .selectAll()
      .where('enabled', '=', 1)
      .where('next_execution_time', 'is not', null)
      .where('next_execution_time', '<=', now)
      .execute();
    for (const policy of due) {
      let next: number | null = null;
      try {
        next = nextRuns(policy.cron_exp, 1, new Date(now))[0] ?? null;
      } catch {
        // an expression that fires no more leaves the policy unscheduled
      }
      const claimed = await db
        .updateTable('archive_policies')
        .set({ next_execution_time: next })
        .where('key', '=', policy.key)
        .where('next_execution_time', '=', policy.next_execution_time)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      await runner.startArchive(policy, { actor: 'system', sourceIp: '' }, 'PENDING').catch((error: unknown) => {
        log.warn({ err: error, policy: policy.key }, 'a scheduled archive run did not start');
      });
    }
    await runner.forgetOld();
    const expired = await expireArchived(context);
    if (expired) log.info({ expired }, 'archived items past their expiration deleted');
  });
  app.jobs.register('archive-upkeep', '7 0 * * *', async () => {
    await sampleArchive(db);
    const removed = await collectColdGarbage(db, cold, COLD_GC_GRACE_MS);
    if (removed) log.info({ removed }, 'cold store garbage collection');
  });
  app.addHook('onClose', async () => {
    // the runs under way end first (the kernel stops before the app closes), then the cold store
    await app.work.idle();
    cold.close?.();
  });
  return { runner, cold };
}

/** The archive: its runs on this process and its cold store. */
export interface Archive {
  runner: ArchiveRunner;
  cold: BinaryStore;
}
