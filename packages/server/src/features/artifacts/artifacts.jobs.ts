import type { FastifyInstance } from 'fastify';
import { sampleStorage, sampledToday } from './artifacts.usage.js';
import { collectGarbage } from './artifacts.gc.js';
import { emptyTrash } from './artifacts.trash.js';
import { UploadSessions } from './artifacts.uploads.js';
import { defineRepositoryDeletion } from './artifacts.purge.js';
import { pruneMadeFiles } from './artifacts.made-store.js';

/** Upload sessions untouched this long are swept. */
const STALE_UPLOAD_MS = 24 * 3600_000;

/**
 * The artifacts feature's jobs: trash retention, binary garbage collection, stale uploads and
 * made files past their time; its kind of background task (repository deletions); and the uploads received in parts, shared by every request of this process.
 */
export function registerArtifactJobs(app: FastifyInstance): UploadSessions {
  const { db, binaries: store, config, log } = app;
  const uploads = new UploadSessions(store.uploads);
  app.jobs.register('upload-sweep', '41 * * * *', async () => {
    const removed = await uploads.sweep(STALE_UPLOAD_MS);
    if (removed) log.info({ removed }, 'stale uploads removed');
  });
  app.jobs.register('trash-retention', '17 * * * *', async () => {
    if (config.trashRetentionDays <= 0) return;
    const removed = await emptyTrash({ db, store }, 'system', Date.now() - config.trashRetentionDays * 86_400_000);
    if (removed) log.info({ removed }, 'trash retention removed expired items');
  });
  // a sample of every repository's size each day, for the storage summary's growth chart
  app.jobs.register('storage-sampling', '5 0 * * *', async () => {
    await sampleStorage(db);
  });
  app.addHook('onReady', async () => {
    if (app.polls && !(await sampledToday(db))) await sampleStorage(db);
  });
  // a repository deletion runs on the durable-work kernel: one whose node died is taken over by another
  defineRepositoryDeletion(app.work, db);
  // files made from stored files (merged indexes) are made again after a week, their contents given back
  app.jobs.register('made-files-retention', '33 3 * * *', async () => {
    const removed = await pruneMadeFiles(db);
    if (removed) log.info({ removed }, 'made files past their time removed');
  });
  app.jobs.register('binary-gc', '27 * * * *', async () => {
    const collected = await collectGarbage(db, store);
    if (collected.binaries || collected.orphans) log.info(collected, 'binary garbage collection');
  });
  return uploads;
}
