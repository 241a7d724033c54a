import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** A key's hits in its current window, and when that window started (epoch ms). */
export interface LimitState {
  hits: number;
  windowStart: number;
}

/**
 * Counts one hit of `key` in the database, which every node shares: a window older than
 * `windowMs` starts again at one. One statement, so that two nodes counting at once both count.
 */
export async function hitLimit(db: Db, key: string, windowMs: number, now = Date.now()): Promise<LimitState> {
  const expired = sql<boolean>`rate_limits.window_start + ${windowMs} <= ${now}`;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, hits: 1, window_start: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`case when ${expired} then 1 else rate_limits.hits + 1 end`,
        window_start: sql<number>`case when ${expired} then ${now} else rate_limits.window_start end`,
      }),
    )
    .returning(['hits', 'window_start'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), windowStart: Number(row.window_start) };
}

/** The keys under `prefix` whose window is still open, with their hits. */
export async function openLimits(
  db: Db,
  prefix: string,
  windowMs: number,
  now = Date.now(),
): Promise<Map<string, LimitState>> {
  const rows = await db
    .selectFrom('rate_limits')
    .select(['key', 'hits', 'window_start'])
    .where('key', 'like', `${prefix}%`)
    .where('window_start', '>', now - windowMs)
    .execute();
  return new Map(
    rows.map((row) => [
      row.key.slice(prefix.length),
      { hits: Number(row.hits), windowStart: Number(row.window_start) },
    ]),
  );
}

/** Removes counters whose window ended more than a day ago. */
export async function pruneLimits(db: Db, now = Date.now()): Promise<number> {
  const removed = await db
    .deleteFrom('rate_limits')
    .where('window_start', '<', now - 86_400_000)
    .executeTakeFirst();
  return Number(removed.numDeletedRows);
}

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** What the plugin tells a route's store of its route. */
type RouteOptions = { method?: unknown; url?: string };

/**
 * A store for `@fastify/rate-limit` that counts in the database, so that a route's limit holds
 * for the whole cluster rather than per node (the routes that opt in are rare ones: a mail sent,
 * not every download). Each route counts under its own key.
 */
class DatabaseRateLimitStore {
  constructor(
    readonly db: Db,
    readonly options: RouteOptions = {},
  ) {}

  key(ip: string): string {
    const { method, url } = this.options;
    const route = url ? `${Array.isArray(method) ? method.join(',') : String(method)} ${url}` : '*';
    return `route:${route}:${ip}`;
  }

  incr(ip: string, callback: Callback, timeWindow: number): void {
    const now = Date.now();
    hitLimit(this.db, this.key(ip), timeWindow, now).then(
      (state) => callback(null, { current: state.hits, ttl: Math.max(0, state.windowStart + timeWindow - now) }),
      (error: Error) => callback(error),
    );
  }

  read(ip: string, callback: Callback, timeWindow: number): void {
    const now = Date.now();
    this.db
      .selectFrom('rate_limits')
      .select(['hits', 'window_start'])
      .where('key', '=', this.key(ip))
      .executeTakeFirst()
      .then(
        (row) =>
          callback(
            null,
            row && Number(row.window_start) + timeWindow > now
              ? { current: Number(row.hits), ttl: Number(row.window_start) + timeWindow - now }
              : { current: 0, ttl: 0 },
          ),
        (error: Error) => callback(error),
      );
  }

  child(routeOptions: RouteOptions): DatabaseRateLimitStore {
    return new DatabaseRateLimitStore(this.db, { method: routeOptions.method, url: routeOptions.url });
  }
}

/** The store's constructor as the plugin calls it (`new Store(options)`), bound to a database. */
export function databaseRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  return class extends DatabaseRateLimitStore {
    constructor() {
      super(db);
    }
  } as unknown as FastifyRateLimitStoreCtor;
}
