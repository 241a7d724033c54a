import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ArcaEvent } from '@arca/contracts';
import type { Db } from '../db/database.js';
import { onAuditRecorded, onEventRecorded } from './changes.js';
import { cachedConfig } from './config-cache.js';
import { consumerStates } from './outbox.js';

/** The message a worker sends its primary for the metrics of every worker, and the answer. */
const CLUSTER_METRICS = 'arca:metrics';
/** How long a worker waits for its primary's aggregate before answering with its own metrics. */
const CLUSTER_WAIT_MS = 5_000;

/**
 * A histogram for the hottest paths (every request, every query), registered with prom-client
 * like its own: a series is found by one string key its caller already has, where prom-client's
 * `observe` hashes the label set on every call (3 % of a 1 KiB read's time).
 */
class KeyedHistogram<L extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<
    string,
    { labels: Record<L, string | number>; buckets: number[]; sum: number; count: number }
  >();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  observe(key: string, labels: () => Record<L, string | number>, value: number): void {
    let series = this.series.get(key);
    if (!series) {
      series = { labels: labels(), buckets: new Array<number>(this.bounds.length).fill(0), sum: 0, count: 0 };
      this.series.set(key, series);
    }
    series.sum += value;
    series.count += 1;
    const { bounds } = this;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        series.buckets[i]! += 1;
        break;
      }
    }
  }

  /** prom-client's shape of a histogram: cumulative buckets, then +Inf, sum and count. */
  get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const { labels, buckets, sum, count } of this.series.values()) {
      let cumulative = 0;
      for (const [i, bound] of this.bounds.entries()) {
        cumulative += buckets[i]!;
        values.push({ labels: { ...labels, le: bound }, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels: { ...labels, le: '+Inf' }, value: count, metricName: `${this.name}_bucket` });
      values.push({ labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels, value: count, metricName: `${this.name}_count` });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator });
  }

  reset(): void {
    this.series.clear();
  }
}

/** What the metrics read from the process they run in. */
export interface MetricsSources {
  db: Db;
  nodeId: string;
  /** PostgreSQL's pool: connections open, idle and waited for; absent on SQLite (one connection). */
  pool?: () => { total: number; idle: number; waiting: number };
}

/**
 * The Prometheus metrics of one server process (prom-client): Node.js and process metrics, HTTP
 * request durations, bytes deployed and downloaded by package type, artifacts and bytes per
 * repository, database query time and pool, outbox backlog per consumer, webhook deliveries by
 * outcome, scheduled job runs and durations, sign-in failures and locked-out users. Counters
 * move on what this process does; the gauges read from the database are read at each scrape.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpDuration: KeyedHistogram<'method' | 'route' | 'status_code'>;
  private readonly dbQueryDuration: KeyedHistogram<'outcome'>;
  private readonly deployedBytes: Counter<'package_type'>;
  private readonly downloadedBytes: Counter<'package_type'>;
  private readonly webhookDeliveries: Counter<'outcome'>;
  private readonly jobRuns: Counter<'job' | 'outcome'>;
  private readonly jobDuration: Histogram<'job'>;
  private readonly loginFailures: Counter;
  private readonly unsubscribe: (() => void)[] = [];
  private sources: MetricsSources | undefined;
  /** Bytes downloaded per repository since the last scrape, added to the counter by package type then. */
  private readonly pendingDownloads = new Map<string, number>();

  constructor() {
    const registers = [this.registry];
    const usage = (gauge: Gauge<'repository' | 'package_type'>, column: 'files' | 'size') =>
      this.repositoryUsage(gauge, column);
    const outbox = (gauge: Gauge<'consumer'>, field: 'pending' | 'dead') => this.outbox(gauge, field);
    const db = () => this.sources?.db;
    const poolStats = () => this.sources?.pool?.();
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new KeyedHistogram(
      'http_request_duration_seconds',
      'Time to answer an HTTP request, by method, route template and status code.',
      [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      this.registry,
    );
    this.dbQueryDuration = new KeyedHistogram(
      'arca_db_query_duration_seconds',
      'Time the metadata database took to answer a query.',
      [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      this.registry,
    );
    this.deployedBytes = new Counter({
      name: 'arca_deployed_bytes_total',
      help: 'Bytes of files deployed, by package type of the repository.',
      labelNames: ['package_type'],
      registers,
    });
    const countDownloads = () => this.countDownloads();
    this.downloadedBytes = new Counter({
      name: 'arca_downloaded_bytes_total',
      help: 'Bytes of files sent to clients, by package type of the repository.',
      labelNames: ['package_type'],
      registers,
      collect: countDownloads,
    });
    this.webhookDeliveries = new Counter({
      name: 'arca_webhook_deliveries_total',
      help: 'Webhook delivery attempts, by outcome (delivered, retrying, failed).',
      labelNames: ['outcome'],
      registers,
    });
    this.jobRuns = new Counter({
      name: 'arca_job_runs_total',
      help: 'Runs of scheduled jobs, by job and outcome.',
      labelNames: ['job', 'outcome'],
      registers,
    });
    this.jobDuration = new Histogram({
      name: 'arca_job_duration_seconds',
      help: 'Time a scheduled job run took, by job.',
      labelNames: ['job'],
      buckets: [0.1, 1, 10, 60, 300, 1800, 3600, 6 * 3600],
      registers,
    });
    this.loginFailures = new Counter({
      name: 'arca_login_failures_total',
      help: 'Failed sign-ins (console and clients).',
      registers,
    });
    // read from the database at each scrape: the same in every process, so a cluster takes one
    new Gauge({
      name: 'arca_repository_artifacts',
      help: 'Files stored in a repository.',
      labelNames: ['repository', 'package_type'],
      aggregator: 'first',
      registers,
      collect: async function (this: Gauge<'repository' | 'package_type'>) {
        await usage(this, 'files');
      },
    });
    new Gauge({
      name: 'arca_repository_bytes',
      help: 'Bytes of the files stored in a repository.',
      labelNames: ['repository', 'package_type'],
      aggregator: 'first',
      registers,
      collect: async function (this: Gauge<'repository' | 'package_type'>) {
        await usage(this, 'size');
      },
    });
    new Gauge({
      name: 'arca_outbox_pending_events',
      help: 'Events an outbox consumer has not applied yet (its backlog).',
      labelNames: ['consumer'],
      aggregator: 'first',
      registers,
      collect: async function (this: Gauge<'consumer'>) {
        await outbox(this, 'pending');
      },
    });
    new Gauge({
      name: 'arca_outbox_dead_events',
      help: 'Events an outbox consumer gave up on.',
      labelNames: ['consumer'],
      aggregator: 'first',
      registers,
      collect: async function (this: Gauge<'consumer'>) {
        await outbox(this, 'dead');
      },
    });
    new Gauge({
      name: 'arca_locked_out_users',
      help: 'User names locked out after too many failed sign-ins, now.',
      aggregator: 'first',
      registers,
      collect: async function (this: Gauge) {
        const database = db();
        if (!database) return;
        const row = await database
          .selectFrom('login_failures')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('locked_until', '>', Date.now())
          .executeTakeFirst();
        this.set(Number(row?.n ?? 0));
      },
    });
    const pool = (name: string, help: string, pick: (p: { total: number; idle: number; waiting: number }) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect: function (this: Gauge) {
          const stats = poolStats();
          this.set(stats ? pick(stats) : name === 'arca_db_pool_connections' ? 1 : 0);
        },
      });
    pool('arca_db_pool_connections', 'Connections the metadata database pool holds.', (p) => p.total);
    pool('arca_db_pool_idle_connections', 'Connections of the pool not in use.', (p) => p.idle);
    pool('arca_db_pool_waiting_requests', 'Queries waiting for a connection of the pool.', (p) => p.waiting);

    // what this process records: deploys (bytes by package type) and failed sign-ins
    this.unsubscribe.push(
      onEventRecorded((event) => this.onEvent(event)),
      onAuditRecorded((_who, entry) => {
        if (entry.category === 'auth' && entry.action === 'sign-in' && entry.outcome === 'failure') {
          this.loginFailures.inc();
        }
      }),
    );
  }

  /** Starts reading from the process's database; in a cluster worker, answers for the whole node. */
  attach(sources: MetricsSources): void {
    this.sources = sources;
    if (cluster.isWorker) {
      // constructing one makes this worker answer the primary's requests for its metrics
      new AggregatorRegistry();
      AggregatorRegistry.setRegistries(this.registry);
    }
  }

  /** Stops following events and lets go of the database (the process's collectors outlive it). */
  close(): void {
    for (const stop of this.unsubscribe) stop();
    this.registry.clear();
    this.sources = undefined;
  }

  private async packageTypeOf(repoKey: string): Promise<string> {
    const db = this.sources?.db;
    if (!db) return 'unknown';
    const row = await cachedConfig(db, `metrics.package-type:${repoKey}`, () =>
      db.selectFrom('repositories').select('package_type').where('key', '=', repoKey).executeTakeFirst(),
    );
    return row?.package_type ?? 'unknown';
  }

  private onEvent(event: ArcaEvent): void {
    if (event.type !== 'artifact.deployed' || event.payload.cached) return;
    const size = event.payload.size;
    void this.packageTypeOf(event.repoKey).then(
      (type) => this.deployedBytes.inc({ package_type: type }, size),
      () => undefined,
    );
  }

  /** A request answered: its duration by method, route template and status. */
  requestDone(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe(`${method} ${status} ${route}`, () => ({ method, route, status_code: status }), seconds);
  }

  /** A database query answered (or failed) in `seconds`. */
  queryDone(seconds: number, failed: boolean): void {
    const outcome = failed ? 'error' : 'ok';
    this.dbQueryDuration.observe(outcome, () => ({ outcome }), seconds);
  }

  /** Bytes sent to a client from a repository (counted by package type at the next scrape). */
  downloaded(repoKey: string, bytes: number): void {
    if (bytes > 0) this.pendingDownloads.set(repoKey, (this.pendingDownloads.get(repoKey) ?? 0) + bytes);
  }

  /** Moves the downloads counted since the last scrape into the counter, by package type. */
  private async countDownloads(): Promise<void> {
    const pending = [...this.pendingDownloads];
    this.pendingDownloads.clear();
    for (const [repoKey, bytes] of pending) {
      this.downloadedBytes.inc({ package_type: await this.packageTypeOf(repoKey).catch(() => 'unknown') }, bytes);
    }
  }

  webhookDelivery(outcome: 'delivered' | 'retrying' | 'failed'): void {
    this.webhookDeliveries.inc({ outcome });
  }

  jobRun(job: string, outcome: string, seconds: number): void {
    this.jobRuns.inc({ job, outcome });
    this.jobDuration.observe({ job }, seconds);
  }

  private async repositoryUsage(gauge: Gauge<'repository' | 'package_type'>, column: 'files' | 'size') {
    const db = this.sources?.db;
    if (!db) return;
    const rows = await db
      .selectFrom('repositories as r')
      .leftJoin('repository_usage as u', 'u.repo_key', 'r.key')
      .select(['r.key', 'r.package_type', 'u.files', 'u.size'])
      .where('r.rclass', '!=', 'virtual')
      .execute();
    gauge.reset();
    for (const row of rows) {
      gauge.set({ repository: row.key, package_type: row.package_type }, Number(row[column] ?? 0));
    }
  }

  private async outbox(gauge: Gauge<'consumer'>, field: 'pending' | 'dead') {
    const db = this.sources?.db;
    if (!db) return;
    gauge.reset();
    for (const state of await consumerStates(db)) gauge.set({ consumer: state.name }, state[field]);
  }

  /**
   * The text a scrape gets: this process's metrics, or — in a worker of a cluster — every
   * worker's, summed by the primary (gauges read from the database taken once).
   */
  async scrape(): Promise<string> {
    if (!cluster.isWorker || !process.send) return this.registry.metrics();
    const id = randomUUID();
    const answer = new Promise<string | undefined>((resolve) => {
      const timer = setTimeout(() => {
        process.off('message', onMessage);
        resolve(undefined);
      }, CLUSTER_WAIT_MS);
      const onMessage = (message: { type?: string; id?: string; text?: string }) => {
        if (message?.type !== CLUSTER_METRICS || message.id !== id) return;
        clearTimeout(timer);
        process.off('message', onMessage);
        resolve(message.text);
      };
      process.on('message', onMessage);
    });
    process.send({ type: CLUSTER_METRICS, id });
    return (await answer) ?? this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** In a cluster's primary: answers each worker's request for the metrics of all of them. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== CLUSTER_METRICS) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: CLUSTER_METRICS, id: message.id, text }),
      () => worker.send({ type: CLUSTER_METRICS, id: message.id }),
    );
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's Prometheus metrics. */
    metrics: Metrics;
  }
}
