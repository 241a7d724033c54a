import type { FastifyInstance } from 'fastify';
import { preparedQuery, type Db } from '../db/database.js';

const generationOf = preparedQuery<{ value: number }, [name: string]>((db) =>
  db.selectFrom('generations').select('value').where('name', '=', ''),
);

/**
 * Per-process caches of configuration — repositories, settings, rights — so that a read does not
 * query them again on every request. Every recorded change (`core/changes.ts`) bumps the
 * database's configuration generation in its transaction. A request that begins marks the check
 * due (`configCheckDue`, no query); the first read of configuration after that checks the
 * generation (`configCurrent`: a query only when another process committed meanwhile, as the
 * database's data version tells — SQLite's own, PostgreSQL's change feed)
 * and a process whose cache was filled under another generation drops it. A change is therefore
 * seen by the next request on every process that reads configuration (on PostgreSQL, on another
 * node, once the commit's notification has arrived: PostgreSQL sends it at the commit), a request
 * that reads none (a ping, a console asset) pays nothing, and the process that made the change
 * drops its own cache at once. Only the root database object caches: reads inside a
 * transaction always query.
 */
interface ConfigCache {
  generation: number | undefined;
  entries: Map<string, Promise<unknown>>;
  /** What changes when another process commits; the generation is read only when it did. */
  dataVersion: (() => number) | undefined;
  seenDataVersion: number | undefined;
  /** A request began since the last check. */
  due: boolean;
  /** The check under way, which reads wait for. */
  checking: Promise<void> | undefined;
  /**
   * The generation a change of this process set (in a transaction that may not have committed
   * yet): until a check sees it, every read checks again, so that nothing read from before the
   * commit is kept. (After a rollback, reads check once each until any change reaches it.)
   */
  awaited: number;
}

const caches = new WeakMap<Db, ConfigCache>();
const live = new Set<ConfigCache>();
const listeners = new Set<() => void>();

/**
 * Called when this process learns that configuration changed (here or in another process): other
 * per-process caches (verified client credentials) drop what they hold. Answers how to stop
 * listening: what an app registers ends with the app, or the listener (and the app it holds)
 * outlives it and keeps running on every later change.
 */
export function onConfigChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Follows configuration changes for as long as `app` is open (what an app-wide follower should use). */
export function followConfigWhileOpen(app: FastifyInstance, listener: () => void): void {
  const unfollow = onConfigChanged(listener);
  app.addHook('onClose', async () => {
    unfollow();
  });
}

/** How many listeners follow configuration changes in this process (what a closed app left behind shows here). */
export function configChangeListeners(): number {
  return listeners.size;
}

export function enableConfigCache(db: Db, dataVersion?: () => number): void {
  const cache: ConfigCache = {
    generation: undefined,
    entries: new Map(),
    dataVersion,
    seenDataVersion: undefined,
    due: true,
    checking: undefined,
    awaited: 0,
  };
  caches.set(db, cache);
  live.add(cache);
}

export function disableConfigCache(db: Db): void {
  const cache = caches.get(db);
  if (cache) live.delete(cache);
  caches.delete(db);
}

/**
 * Whether the generation must be read again before this request: only when another process
 * committed since the last read (this process's own changes drop the cache at once).
 */
function configMayHaveChanged(db: Db): boolean {
  const cache = caches.get(db);
  if (!cache) return false;
  if (!cache.dataVersion || cache.generation === undefined || cache.generation < cache.awaited) return true;
  return cache.dataVersion() !== cache.seenDataVersion;
}

/** A request began: configuration is checked again before it next reads any (costs no query). */
export function configCheckDue(db: Db): void {
  const cache = caches.get(db);
  if (cache) cache.due = true;
}

/**
 * Undefined when the cache already reflects every change committed before the latest request
 * began; else the check that makes it so (shared by every read while it runs).
 */
export function configCurrent(db: Db): Promise<void> | undefined {
  const cache = caches.get(db);
  if (!cache) return undefined;
  if (cache.due) {
    cache.due = false;
    if (configMayHaveChanged(db)) {
      const check: Promise<void> = checkConfigGeneration(db).finally(() => {
        if (cache.checking === check) cache.checking = undefined;
      });
      cache.checking = check;
    }
  }
  return cache.checking;
}

/** Reads the generation (one indexed query) and drops the cache when it changed. */
async function checkConfigGeneration(db: Db): Promise<void> {
  const cache = caches.get(db);
  if (!cache) return;
  // read before the generation: a commit in between is seen by the next check
  cache.seenDataVersion = cache.dataVersion?.();
  const [row] = await generationOf(db, 'config');
  const generation = Number(row?.value ?? 0);
  if (generation !== cache.generation) {
    const known = cache.generation !== undefined;
    cache.entries.clear();
    cache.generation = generation;
    if (known) listeners.forEach((listener) => listener());
  }
  // this process's own change has not committed yet: the next read checks again
  if (generation < cache.awaited) cache.due = true;
}

/** The cached value of `key`, loaded once per generation; a failed load is not kept. */
export function cachedConfig<T>(db: Db, key: string, load: () => Promise<T>): Promise<T> {
  const cache = caches.get(db);
  if (!cache) return load();
  const checking = configCurrent(db);
  // one check per read: while a change of this process commits, the next read checks again
  if (checking) return checking.then(() => cachedEntry(cache, key, load));
  return cachedEntry(cache, key, load);
}

/**
 * As `cachedConfig`, for a look-up whose absence a user acts on (a repository by key): a cached
 * absence is confirmed by reading the generation once, so that what another node created a moment
 * ago is found although its commit's notification may not have arrived (PostgreSQL's change feed
 * tells other nodes a few milliseconds after the commit). A present value is answered from the cache.
 */
export async function cachedConfigPresent<T>(
  db: Db,
  key: string,
  load: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const found = await cachedConfig(db, key, load);
  const cache = caches.get(db);
  if (found !== undefined || !cache) return found;
  const check: Promise<void> = checkConfigGeneration(db).finally(() => {
    if (cache.checking === check) cache.checking = undefined;
  });
  cache.checking = check;
  await check;
  return cachedEntry(cache, key, load);
}

function cachedEntry<T>(cache: ConfigCache, key: string, load: () => Promise<T>): Promise<T> {
  let entry = cache.entries.get(key) as Promise<T> | undefined;
  if (!entry) {
    entry = load();
    cache.entries.set(key, entry);
    entry.catch(() => cache.entries.delete(key));
  }
  return entry;
}

/**
 * Marks configuration changed: bumps the generation inside the change's transaction (other
 * processes see it once it commits) and drops this process's caches now.
 */
export async function bumpConfigGeneration(trx: Db): Promise<void> {
  const bumped = await trx
    .updateTable('generations')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', 'config')
    .returning('value')
    .executeTakeFirst();
  const awaited = Number(bumped?.value ?? 0);
  for (const cache of live) {
    cache.entries.clear();
    cache.generation = undefined;
    cache.due = true;
    cache.awaited = Math.max(cache.awaited, awaited);
  }
  listeners.forEach((listener) => listener());
}
