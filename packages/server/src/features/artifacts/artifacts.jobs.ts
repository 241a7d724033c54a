import type { FastifyInstance } from 'fastify';
import { collectGarbage } from './artifacts.gc.js';
import { emptyTrash } from './artifacts.trash.js';

/** The artifacts feature's hourly jobs: trash retention, then binary garbage collection. */
export function registerArtifactJobs(app: FastifyInstance): void {
  const { db, binaries: store, config, log } = app;
  app.jobs.register('trash-retention', '17 * * * *', async () => {
    if (config.trashRetentionDays <= 0) return;
    const removed = await emptyTrash({ db, store }, 'system', Date.now() - config.trashRetentionDays * 86_400_000);
    if (removed) log.info({ removed }, 'trash retention removed expired items');
  });
  app.jobs.register('binary-gc', '27 * * * *', async () => {
    const collected = await collectGarbage(db, store);
    if (collected.binaries || collected.orphans) log.info(collected, 'binary garbage collection');
  });
}
