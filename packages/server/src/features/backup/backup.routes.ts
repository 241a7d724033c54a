import fs from 'node:fs';
import path from 'node:path';
import { backupsAnswerSchema, type BackupEntry, type BackupsAnswer } from '@arca/contracts';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { audit } from '../../core/audit.js';
import { HttpError } from '../../core/errors.js';
import { backup, readManifest } from './backup.service.js';

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
 * Backups from the console: a job that writes a new folder under the backup folder (its
 * binaries hard-linked from the newest backup first, so only new ones are copied), keeps the
 * newest `ARCA_BACKUP_KEEP`, and runs on a schedule when one is set.
 */
export function registerBackups(app: FastifyInstance): void {
  const state: { running: BackupsAnswer['running']; lastError: string | null } = { running: null, lastError: null };
  app.decorate('backups', state);
  app.jobs.register(BACKUP_JOB, app.config.backupSchedule ?? NEVER, async () => {
    const dir = app.config.backupDir;
    const startedAt = Date.now();
    state.running = { step: 'starting', done: 0, total: 1, startedAt };
    const target = path.join(dir, stamp(startedAt));
    try {
      const previous = (await listBackups(dir))[0];
      await fs.promises.mkdir(target, { recursive: true });
      if (previous && fs.existsSync(path.join(dir, previous.name, 'filestore'))) {
        state.running = { step: 'linking the previous backup', done: 0, total: 1, startedAt };
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
          cold: app.retention?.cold,
        },
        (step, done, total) => (state.running = { step, done, total, startedAt }),
      );
      state.lastError = null;
      app.log.info({ backup: target, binaries: manifest.binaries, seconds: manifest.seconds }, 'backup made');
      for (const old of (await listBackups(dir)).slice(app.config.backupKeep)) {
        await fs.promises.rm(path.join(dir, old.name), { recursive: true, force: true });
      }
    } catch (error) {
      state.lastError = error instanceof Error ? error.message : String(error);
      await fs.promises.rm(target, { recursive: true, force: true });
      throw error;
    } finally {
      state.running = null;
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
      running: app.backups.running,
      lastError: app.backups.lastError,
      backups: await listBackups(app.config.backupDir),
    }),
  );
  app.post('/system/backups', { config: { access: 'admin' } }, async (request, reply) => {
    if (app.backups.running) throw new HttpError(409, 'A backup is being made already.');
    await audit(request, { category: 'system', action: 'backup.started', target: app.config.backupDir });
    // the run goes on after the answer; its progress is in GET /system/backups
    void app.jobs.runNow(BACKUP_JOB).then(
      (ran) => ran || app.log.warn('a backup was asked for while another node was making one'),
      (error: unknown) => app.log.error({ err: error }, 'a backup failed'),
    );
    return reply.status(202).send({ started: true });
  });
};

declare module 'fastify' {
  interface FastifyInstance {
    /** This node's backup in progress and its last failure. */
    backups: { running: BackupsAnswer['running']; lastError: string | null };
  }
}
