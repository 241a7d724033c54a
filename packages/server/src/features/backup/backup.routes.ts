import fs from 'node:fs';
import path from 'node:path';
import { BACKUP_MESSAGES, backupsAnswerSchema, type BackupEntry, type BackupsAnswer } from '@arca/contracts';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audit } from '../../core/audit.js';
import { HttpError } from '../../core/errors.js';
import { latestRun } from '../../core/jobs.js';
import type { BinaryStore } from '../../storage/binary-store.js';
import { backup } from './backup.service.js';
import { readManifest } from './backup.restore.js';

/** The job that makes a backup into the backup folder. */
export const BACKUP_JOB = 'backup';
/** A schedule that never comes: the job runs when asked, unless ARCA_BACKUP_SCHEDULE says when. */
const NEVER = '0 0 30 2 *';

/** A backup's folder name: its start, to the millisecond (`20261125T034512.123Z`). */
const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '');

/** Hard-links every file of `from` into `to` (same file system): the new backup starts with the old one's binaries. */
async function linkTree(from: string, to: string): Promise<void> {
  for (const entry of await fs.promises.readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      await fs.promises.mkdir(target, { recursive: true });
      await linkTree(source, target);
    } else {
      await fs.promises.link(source, target).catch(() => fs.promises.copyFile(source, target));
    }
  }
}

async function listBackups(dir: string): Promise<BackupEntry[]> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const entries: BackupEntry[] = [];
  for (const name of names.sort().reverse()) {
    const manifest = await readManifest(path.join(dir, name)).catch(() => undefined);
    if (!manifest) continue;
    entries.push({
      name,
      created: manifest.created,
      engine: manifest.engine,
      method: manifest.database.method,
      rows: Object.values(manifest.database.tables).reduce((a, b) => a + b, 0),
      binaries: manifest.binaries.count,
      bytes: manifest.binaries.bytes,
      copied: manifest.binaries.copied,
      reused: manifest.binaries.reused,
      seconds: manifest.seconds,
    });
  }
  return entries;
}

/**
 * Why no backup may be made here: on PostgreSQL, which several nodes may share, the backup folder
 * must be one chosen for all of them; the data directory's default is one node's disk.
 */
function refusal(app: FastifyInstance): string | null {
  return app.dbEngine === 'postgres' && !app.config.backupDirChosen ? BACKUP_MESSAGES.sharedFolder : null;
}

/** The backup under way (with its progress, from whichever node makes it) and the newest run's failure. */
async function backupState(app: FastifyInstance): Promise<Pick<BackupsAnswer, 'running' | 'lastError'>> {
  const run = await latestRun(app.work, BACKUP_JOB);
  if (run?.outcome === 'running') {
    const { step, done, total } = run.progress ?? { step: 'starting', done: 0, total: 1 };
    return { running: { step, done, total, startedAt: run.startedAt, node: run.node }, lastError: null };
  }
  return { running: null, lastError: run && run.outcome !== 'success' ? run.message : null };
}

/** Progress told at most this often (and at each new step): every node reads it from the database. */
const PROGRESS_EVERY_MS = 500;

/**
 * Backups from the console: a job that writes a new folder under the backup folder (its
 * binaries hard-linked from the newest backup first, so only new ones are copied), keeps the
 * newest `ARCA_BACKUP_KEEP`, and runs on a schedule when one is set.
 */
export function registerBackups(app: FastifyInstance, cold: BinaryStore | undefined): void {
  app.jobs.register(BACKUP_JOB, app.config.backupSchedule ?? NEVER, async ({ progress }) => {
    const refused = refusal(app);
    if (refused) throw new Error(refused);
    const dir = app.config.backupDir;
    const startedAt = Date.now();
    let told = { step: '', at: 0 };
    let telling: Promise<void> = Promise.resolve();
    const tell = (step: string, done: number, total: number) => {
      const now = Date.now();
      if (step === told.step && now - told.at < PROGRESS_EVERY_MS && done < total) return;
      told = { step, at: now };
      telling = telling.then(() => progress({ step, done, total }));
      // a failure to tell (the run lost its hold) ends the backup where it is awaited, never unhandled
      telling.catch(() => undefined);
    };
    tell('starting', 0, 1);
    const target = path.join(dir, stamp(startedAt));
    try {
      const previous = (await listBackups(dir))[0];
      await fs.promises.mkdir(target, { recursive: true });
      if (previous && fs.existsSync(path.join(dir, previous.name, 'filestore'))) {
        tell('linking the previous backup', 0, 1);
        await linkTree(path.join(dir, previous.name, 'filestore'), path.join(target, 'filestore'));
        if (fs.existsSync(path.join(dir, previous.name, 'coldstore')))
          await linkTree(path.join(dir, previous.name, 'coldstore'), path.join(target, 'coldstore'));
      }
      const manifest = await backup(
        {
          dataDir: app.config.dataDir,
          databaseUrl: app.config.databaseUrl,
          target,
          store: app.binaries,
          cold,
        },
        tell,
      );
      await telling;
      app.log.info({ backup: target, binaries: manifest.binaries, seconds: manifest.seconds }, 'backup made');
      for (const old of (await listBackups(dir)).slice(app.config.backupKeep)) {
        await fs.promises.rm(path.join(dir, old.name), { recursive: true, force: true });
      }
    } catch (error) {
      await fs.promises.rm(target, { recursive: true, force: true });
      throw error;
    }
  });
}

/** The backup page's calls, under the console's API base: administrators only. */
export const backupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/system/backups',
    { config: { access: 'admin' }, schema: { response: { 200: backupsAnswerSchema } } },
    async () => ({
      directory: app.config.backupDir,
      schedule: app.config.backupSchedule ?? null,
      ...(await backupState(app)),
      refused: refusal(app),
      backups: await listBackups(app.config.backupDir),
    }),
  );
  app.post('/system/backups', { config: { access: 'admin' } }, async (request, reply) => {
    const refused = refusal(app);
    if (refused) throw new HttpError(409, refused);
    if ((await backupState(app)).running) throw new HttpError(409, BACKUP_MESSAGES.busy);
    await audit(request, { category: 'system', action: 'backup.started', target: app.config.backupDir });
    // the run goes on after the answer; its progress is in GET /system/backups
    void app.jobs.runNow(BACKUP_JOB).then(
      (ran) => ran || app.log.warn('a backup was asked for while another node was making one'),
      (error: unknown) => app.log.error({ err: error }, 'a backup failed'),
    );
    return reply.status(202).send({ started: true });
  });
};
