import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES, startTestApp, type TestApp } from '../../test/harness.js';
import { HttpError } from '../../core/errors.js';
import type { Db } from '../../db/database.js';
import pino from 'pino';
import { createWork, type Work } from '../../core/work.js';
import { MADE_FILE, MADE_FILES_KEPT_MS, madeStore, pruneMadeFiles, type MadeFile } from './artifacts.made-store.js';

const quiet = pino({ level: 'silent' });

const files = (text: string) =>
  new Map<string, MadeFile>([
    ['Packages', { body: Buffer.from(text), contentType: 'text/plain' }],
    ['Release', { body: Buffer.from(`Release of ${text}`), contentType: 'text/plain' }],
  ]);
const busy = { message: 'being made', retryAfterSeconds: 10 };

describe.each(ENGINES)('files made once for every worker and node on %s', (engine) => {
  let t: TestApp;
  const kernels: Work[] = [];
  beforeEach(async () => {
    t = await startTestApp(engine);
  });
  afterEach(async () => {
    await Promise.all(kernels.splice(0).map((k) => k.stop()));
    await t.close();
  });

  /** A process's kernel over the shared database. */
  const kernel = (holder: string) => {
    const work = createWork({ db: t.app.db, log: quiet, holder, polls: false });
    kernels.push(work);
    return work;
  };
  /** A process of the deployment: its own store and kernel over the shared database and binary store. */
  const process = (holder: string, waitMs = 5_000) =>
    madeStore({ db: t.app.db, binaries: t.app.binaries, work: kernel(holder), waitMs, pollMs: 20, busy });
  /** The makings of a key not ended (none once its files are kept). */
  const unfinished = async (key: string) =>
    (
      await t.app.db
        .selectFrom('work_tasks')
        .select('state')
        .where('kind', '=', MADE_FILE)
        .where('task_key', '=', key)
        .where('state', 'in', ['queued', 'running'])
        .execute()
    ).length;

  it('makes a key once: another process answers what the first made, from the shared store', async () => {
    const a = process('node-a/1');
    const b = process('node-b/1');
    let makings = 0;
    const made = await a.get('view|1', async () => {
      makings += 1;
      return files('one');
    });
    expect(made.get('Packages')!.body.toString()).toBe('one');
    const answered = await b.get('view|1', async () => {
      makings += 1;
      return files('made twice');
    });
    expect(makings).toBe(1);
    expect(answered.get('Packages')!.body.toString()).toBe('one');
    expect(answered.get('Release')).toEqual({ body: Buffer.from('Release of one'), contentType: 'text/plain' });
    // the contents are held like an item's: garbage collection keeps them
    const rows = await t.app.db.selectFrom('made_files').select('sha256').where('made_key', '=', 'view|1').execute();
    const held = await t.app.db
      .selectFrom('binaries')
      .select('ref_count')
      .where(
        'sha256',
        'in',
        rows.map((r) => r.sha256),
      )
      .execute();
    expect(held.map((h) => Number(h.ref_count))).toEqual([1, 1]);
  });

  it('has the others wait while one process makes a key, and answers 503 with Retry-After past their wait', async () => {
    const a = process('node-a/1');
    const b = process('node-b/1');
    const impatient = process('node-c/1', 100);
    let finish!: () => void;
    const slow = new Promise<void>((resolve) => (finish = resolve));
    let started!: () => void;
    const hasStarted = new Promise<void>((resolve) => (started = resolve));
    const making = a.get('view|2', async () => {
      started();
      await slow;
      return files('two');
    });
    await hasStarted;
    const waiting = b.get('view|2', async () => files('made twice'));
    const refused = await impatient.get('view|2', async () => files('made twice')).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ statusCode: 503, message: 'being made', retryAfterSeconds: 10 });
    finish();
    expect((await making).get('Packages')!.body.toString()).toBe('two');
    expect((await waiting).get('Packages')!.body.toString()).toBe('two');
    // asked again, the impatient one is answered
    expect((await impatient.get('view|2', async () => files('made twice'))).get('Packages')!.body.toString()).toBe(
      'two',
    );
  });

  /**
   * The database as a process sees it when another process keeps a key's files just after this
   * one first looked for them and found none (so the claim it takes next is free again).
   */
  const othersKeepAfterTheFirstLook = (others: () => Promise<unknown>): Db => {
    let looked = false;
    const wrap = <T extends object>(target: T, onMadeFiles: boolean): T =>
      new Proxy(target, {
        get(object, property) {
          const value: unknown = Reflect.get(object, property);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            const out: unknown = value.apply(object, args);
            if (property === 'execute' && onMadeFiles && !looked) {
              looked = true;
              return (out as Promise<unknown>).then(async (rows) => {
                await others();
                return rows;
              });
            }
            const watched = onMadeFiles || (property === 'selectFrom' && args[0] === 'made_files');
            return out && typeof out === 'object' && !(out instanceof Promise) ? wrap(out, watched) : out;
          };
        },
      });
    return wrap(t.app.db, false);
  };

  it('answers the files another process kept between its look and its claim, and makes nothing', async () => {
    const a = process('node-a/1');
    let madeByB = 0;
    const b = madeStore({
      db: othersKeepAfterTheFirstLook(() => a.get('view|6', async () => files('six'))),
      binaries: t.app.binaries,
      work: kernel('node-b/1'),
      pollMs: 20,
      busy,
    });
    const answered = await b.get('view|6', async () => {
      madeByB += 1;
      return files('made twice');
    });
    expect(madeByB).toBe(0);
    expect(answered.get('Packages')!.body.toString()).toBe('six');
    const kept = await t.app.db.selectFrom('made_files').select('name').where('made_key', '=', 'view|6').execute();
    expect(kept.map((r) => r.name).sort()).toEqual(['Packages', 'Release']);
    expect(await unfinished('view|6')).toBe(0);
  });

  it('gives the key to another process when the making fails, and to one whose holder stopped once its claim ran out', async () => {
    const a = process('node-a/1');
    await expect(
      a.get('view|3', async () => {
        throw new Error('the members could not be read');
      }),
    ).rejects.toThrow('the members could not be read');
    expect(await t.app.db.selectFrom('made_files').selectAll().where('made_key', '=', 'view|3').execute()).toEqual([]);
    expect((await process('node-b/1').get('view|3', async () => files('three'))).get('Packages')!.body.toString()).toBe(
      'three',
    );
    // a holder that died mid-making: its making stands until its lease runs out, then another makes the key
    const dead = process('node-dead/1');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const hasStarted = new Promise<void>((resolve) => (started = resolve));
    const dying = dead.get('view|4', async () => {
      started();
      await held;
      return files('never kept');
    });
    await hasStarted;
    const waiting = process('node-b/1', 60).get('view|4', async () => files('four'));
    await expect(waiting).rejects.toMatchObject({ statusCode: 503 });
    await t.app.db
      .updateTable('work_tasks')
      .set({ lease_until: Date.now() - 1 })
      .where('kind', '=', MADE_FILE)
      .where('task_key', '=', 'view|4')
      .execute();
    expect((await process('node-c/1').get('view|4', async () => files('four'))).get('Packages')!.body.toString()).toBe(
      'four',
    );
    // the dead one's making, should it come back, keeps nothing over what is kept
    release();
    await dying.catch(() => undefined);
    const kept = await t.app.db.selectFrom('made_files').select('name').where('made_key', '=', 'view|4').execute();
    expect(kept).toHaveLength(2);
  });

  it('removes made files past their time and gives their contents back', async () => {
    await process('node-a/1').get('view|5', async () => files('five'));
    const shas = (await t.app.db.selectFrom('made_files').select('sha256').execute()).map((r) => r.sha256);
    expect(await pruneMadeFiles(t.app.db)).toBe(0);
    expect(await pruneMadeFiles(t.app.db, Date.now() + MADE_FILES_KEPT_MS + 1)).toBe(2);
    expect(await t.app.db.selectFrom('made_files').selectAll().execute()).toEqual([]);
    const counts = await t.app.db.selectFrom('binaries').select('ref_count').where('sha256', 'in', shas).execute();
    expect(counts.map((c) => Number(c.ref_count))).toEqual([0, 0]);
  });
});
