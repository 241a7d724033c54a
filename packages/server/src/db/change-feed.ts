import pg from 'pg';

/** The channel the database's triggers notify when items or generations change (migration 2026-12-25). */
export const CHANGES_CHANNEL = 'arca_changes';

/** How long a lost listening connection waits before it connects again. */
const RECONNECT_MS = 1000;

/**
 * PostgreSQL's counterpart of SQLite's `PRAGMA data_version`: a number that changes when any
 * process may have committed a change to the items or the configuration generation, read without
 * a query. One connection of the node listens on `arca_changes`, which triggers on those tables
 * notify at each commit that wrote them; each notification counts. While the connection is not
 * listening (before it is up, after it is lost) every call answers a new number, so that the
 * caches built on it query every time, as without it.
 *
 * A change committed by another node reaches this one when the notification arrives (PostgreSQL
 * sends it at the commit); a change of this process counts at once (`writes`).
 */
export class PostgresChangeFeed {
  /** Statements of this process that may have written, counted as each ends (commits included). */
  writes = 0;
  private version = 0;
  private listening = false;
  private client: pg.Client | undefined;
  private started = false;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly connectionString: string,
    private readonly onError: (error: Error) => void,
  ) {}

  /** Changes whenever a commit may have changed items or the configuration (a new number each call while not listening). */
  dataVersion(): number {
    this.start();
    return this.listening ? this.version : ++this.version;
  }

  /** Two equal marks mean nothing was written in between, by this process or, once notified, another. */
  changeMark(): string {
    return `${this.dataVersion()}/${this.writes}`;
  }

  /** Stops listening; what reads the marks after it queries every time. */
  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** The connection is opened by the first use, so that a command that never caches opens none. */
  private start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    void this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    this.client = client;
    client.on('notification', () => {
      this.version += 1;
    });
    client.on('error', (error) => {
      this.onError(error);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${CHANGES_CHANNEL}`);
    } catch (error) {
      this.onError(error as Error);
      this.lost(client);
      return;
    }
    if (this.client !== client) return;
    // what was committed before the listening began was never notified: caches filled meanwhile go
    this.version += 1;
    this.listening = true;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.listening = false;
    this.version += 1;
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.retry = setTimeout(() => void this.connect(), RECONNECT_MS);
    this.retry.unref();
  }
}
