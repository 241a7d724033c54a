import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  CompiledQuery,
  SelectQueryNode,
  type Compilable,
  type DatabaseConnection,
  type Driver,
  type KyselyConfig,
  type MigrationResultSet,
  type PostgresDialectConfig,
} from 'kysely';
import pg from 'pg';
import { PostgresChangeFeed } from './change-feed.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';
import type { DbEngine } from './dialect.js';

// int8 (bigint) columns hold epoch milliseconds: well inside Number's exact range.
pg.types.setTypeParser(20, (value) => Number(value));

export type Db = Kysely<Database>;
export { isPostgres, type DbEngine } from './dialect.js';

/** Most prepared statements kept per SQLite connection. */
const STATEMENT_CACHE = 500;

/**
 * better-sqlite3 compiles a statement on every `prepare`; Kysely prepares each query it runs.
 * Queries are built from a small set of shapes with bound parameters, so the compiled statement of
 * each SQL text is kept and reused (least recently used ones dropped past STATEMENT_CACHE).
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const statements = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property !== 'prepare') return Reflect.get(target, property, receiver) as unknown;
      return (source: string) => {
        let statement = statements.get(source);
        if (statement) {
          statements.delete(source);
        } else {
          statement = prepare(source);
          if (statements.size >= STATEMENT_CACHE) statements.delete(statements.keys().next().value!);
        }
        statements.set(source, statement);
        return statement;
      };
    },
  });
}

/**
 * Counts the statements of this process that may write (anything but a select), once as each
 * begins and once as it ends: a value read while a write runs and cached under the mark of that
 * moment is dropped by the second count, whichever the database.
 */
function countWrites(driver: Driver, count: () => void): void {
  const acquire = driver.acquireConnection.bind(driver);
  const counted = new WeakSet<DatabaseConnection>();
  driver.acquireConnection = async () => {
    const connection = await acquire();
    if (!counted.has(connection)) {
      counted.add(connection);
      const execute = connection.executeQuery.bind(connection);
      connection.executeQuery = async (query) => {
        if (SelectQueryNode.is(query.query)) return execute(query);
        count();
        try {
          return await execute(query);
        } finally {
          count();
        }
      };
    }
    return connection;
  };
}

/**
 * SQLite transactions begin IMMEDIATE: a deferred one that reads and then writes cannot wait for
 * another process's write (SQLite answers "database is locked" at once rather than risk a
 * deadlock), which two workers or nodes deploying at the same time would hit. Taking the write
 * lock at the start lets the busy timeout queue them instead.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  /** Statements run by this process that may have written (anything but a select), counted. */
  writes = 0;

  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    countWrites(driver, () => (this.writes += 1));
    return driver;
  }
}

/**
 * PostgreSQL with the node's change feed: the statements of this process that may write are
 * counted as they end, and the feed's listening connection closes with the pool.
 */
class FedPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly feed: PostgresChangeFeed,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    countWrites(driver, () => (this.feed.writes += 1));
    const destroy = driver.destroy.bind(driver);
    driver.destroy = async () => {
      await this.feed.close();
      await destroy();
    };
    return driver;
  }
}

/** Opens the metadata database: PostgreSQL when a URL is given, else SQLite at `<dataDir>/arca.db`. */
export function openDatabase(options: {
  dataDir: string;
  databaseUrl?: string | undefined;
  /**
   * Called when a pooled connection fails (a server restart, a terminated backend): an idle one is
   * replaced by the pool, one in use fails its next query and is then dropped.
   */
  onConnectionError?: (error: Error) => void;
  /** Called after each query with its time in milliseconds and whether it failed (metrics). */
  onQuery?: (ms: number, failed: boolean) => void;
}): {
  db: Db;
  engine: DbEngine;
  /**
   * A number that changes when another process commits to the database — a synchronous check
   * that costs no query: SQLite's `PRAGMA data_version`; on PostgreSQL, the notifications of the
   * node's change feed (`change-feed.ts`), which cover the items and the configuration generation.
   */
  dataVersion: () => number;
  /**
   * A mark of the database's state — two equal marks mean nothing was written in between, by
   * this process or another — for caches of rows that must never be stale.
   */
  changeMark: () => string;
  /** PostgreSQL only: the pool's connections, idle ones and queries waiting for one. */
  poolStats?: () => { total: number; idle: number; waiting: number };
} {
  const onQuery = options.onQuery;
  const log: KyselyConfig['log'] = onQuery
    ? (event) => onQuery(event.queryDurationMillis, event.level === 'error')
    : undefined;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // each connection reports its own failure, idle or in use (in a transaction between two
    // statements, say): pg emits it on the connection, and an event nobody listens to ends the
    // process. The pool's own event repeats an idle one's.
    pool.on('connect', (client) => client.on('error', (error) => options.onConnectionError?.(error)));
    pool.on('error', () => undefined);
    const feed = new PostgresChangeFeed(options.databaseUrl, (error) => options.onConnectionError?.(error));
    return {
      db: new Kysely<Database>({ dialect: new FedPostgresDialect({ pool }, feed), ...(log ? { log } : {}) }),
      engine: 'postgres',
      dataVersion: () => feed.dataVersion(),
      changeMark: () => feed.changeMark(),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(options.dataDir, 'arca.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // prepared once: `pragma()` would compile the statement on every call
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  const dialect = new ImmediateSqliteDialect({ database: withStatementCache(sqlite) });
  return {
    db: new Kysely<Database>({ dialect, ...(log ? { log } : {}) }),
    engine: 'sqlite',
    dataVersion: () => dataVersion.get() as number,
    changeMark: () => `${dataVersion.get() as number}/${dialect.writes}`,
  };
}

/** Brings the schema up to date; throws with the failing migration's error. */
export async function migrateToLatest(db: Db): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const result = await migrator.migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(result.error)}`, {
      cause: result.error,
    });
  }
  return result;
}

/**
 * A hot query compiled once per database and then run with new parameters, so that a request
 * does not build and compile it again (Kysely's builders cost more than SQLite runs such a
 * query). `build` makes the query with placeholder values in the order `parameters` are given.
 */
export function preparedQuery<Row, Parameters extends unknown[]>(
  build: (db: Kysely<Database>) => Compilable<Row>,
): (db: Kysely<Database>, ...parameters: Parameters) => Promise<Row[]> {
  const compiled = new WeakMap<object, CompiledQuery<Row>>();
  return async (db, ...parameters) => {
    // a transaction shares its database's adapter: one compiled query serves both
    const adapter = db.getExecutor().adapter;
    let query = compiled.get(adapter);
    if (!query) {
      query = build(db).compile();
      if (query.parameters.length !== parameters.length) {
        throw new Error(`a prepared query has ${query.parameters.length} parameters, not ${parameters.length}`);
      }
      compiled.set(adapter, query);
    }
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}
