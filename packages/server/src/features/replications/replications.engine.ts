import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FastifyInstance } from 'fastify';
import { HELD_CONTENTS_MAX, type Properties } from '@arca/contracts';
import type { ReplicationRunsTable, ReplicationsTable } from '../../db/schema.js';
import { patternsCover } from '../../core/permissions.js';
import { OutboundRefused, outboundFetch } from '../../core/outbound.js';
import { allowedOutboundHosts } from '../../core/settings.store.js';
import { checksumsOf, systemContent } from '../artifacts/index.js';
import { deploymentToken } from '../deployments/index.js';
import {
  decodeManifest,
  localEntry,
  localManifest,
  type LocalEntry,
  type ManifestEntry,
} from './replications.manifest.js';

const TIMEOUTS = { connectMs: 10_000, firstByteMs: 60_000, idleMs: 60_000 };
const WORKERS = 4;
const OUTPUT_LINES = 500;

type Trigger = 'schedule' | 'event' | 'manual';

/** A run's figures, as its row keeps them. */
type Counters = Pick<
  ReplicationRunsTable,
  | 'files_total'
  | 'files_done'
  | 'files_transferred'
  | 'files_deduplicated'
  | 'files_properties'
  | 'files_deleted'
  | 'files_failed'
  | 'bytes_transferred'
>;

const zero = (): Counters => ({
  files_total: 0,
  files_done: 0,
  files_transferred: 0,
  files_deduplicated: 0,
  files_properties: 0,
  files_deleted: 0,
  files_failed: 0,
  bytes_transferred: 0,
});

/** The other side of a replication: its URL and the service token this deployment holds for it. */
export interface Remote {
  url: string;
  token: string;
  allowed: string[];
  repo: string;
}

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** Matrix parameters that set a deploy's properties (`;key=value`, values URL-encoded). */
function matrixOf(properties: Properties): string {
  return Object.entries(properties)
    .flatMap(([key, values]) => values.map((v) => `;${encodeURIComponent(key)}=${encodeURIComponent(v)}`))
    .join('');
}

export async function remoteFetch(
  remote: Remote,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: Readable | Uint8Array } = {},
): Promise<Response> {
  try {
    return await outboundFetch(`${remote.url}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${remote.token}`, ...init.headers },
      ...(init.body !== undefined ? { body: init.body } : {}),
      allowed: remote.allowed,
      timeouts: TIMEOUTS,
    });
  } catch (error) {
    throw new Error(error instanceof OutboundRefused ? error.message : `${remote.url}: ${String(error)}`);
  }
}

/** The files of the other side's repository (`remote.repo`), with their SHA-256, by path. */
export async function remoteManifest(remote: Remote): Promise<Map<string, ManifestEntry>> {
  const res = await remoteFetch(remote, `/artifactory/api/replication/manifest/${encodeURIComponent(remote.repo)}`);
  if (res.status !== 200) {
    const text = await res.text().catch(() => '');
    throw new Error(
      `The other deployment answered ${res.status} for the manifest of '${remote.repo}': ${text.slice(0, 200)}`,
    );
  }
  return decodeManifest(Buffer.from(await res.arrayBuffer()));
}

/**
 * Which of `sha256s` the other deployment holds (asked in batches), or undefined when it cannot
 * say (an older version): then each file is probed by checksum as it is sent.
 */
export async function remoteHeldContents(remote: Remote, sha256s: string[]): Promise<Set<string> | undefined> {
  const held = new Set<string>();
  const unique = [...new Set(sha256s)];
  for (let i = 0; i < unique.length; i += HELD_CONTENTS_MAX) {
    const res = await remoteFetch(remote, '/artifactory/api/replication/contents', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ sha256: unique.slice(i, i + HELD_CONTENTS_MAX) })),
    });
    if (res.status === 404) {
      await res.body?.cancel().catch(() => undefined);
      return undefined;
    }
    if (res.status !== 200) {
      const text = await res.text().catch(() => '');
      throw new Error(`the other deployment answered ${res.status} for the contents it holds: ${text.slice(0, 200)}`);
    }
    for (const sha256 of ((await res.json()) as { held: string[] }).held) held.add(sha256);
  }
  return held;
}

/** A repository of a registered deployment, reached with the service token this deployment holds for it. */
export async function deploymentRemote(app: FastifyInstance, deploymentId: string, repo: string): Promise<Remote> {
  const deployment = await app.db
    .selectFrom('deployments')
    .select(['url'])
    .where('id', '=', deploymentId)
    .executeTakeFirstOrThrow();
  return {
    url: deployment.url,
    token: await deploymentToken(app, deploymentId),
    allowed: await allowedOutboundHosts(app.db, app.config.outboundAllowedHosts),
    repo,
  };
}

const remoteOf = (app: FastifyInstance, row: ReplicationsTable) =>
  deploymentRemote(app, row.deployment_id, row.remote_repo_key);

const covered = (row: ReplicationsTable, path: string) =>
  patternsCover(JSON.parse(row.include_patterns) as string[], JSON.parse(row.exclude_patterns) as string[], path);

/** What one file's replication did. */
export type Outcome = 'transferred' | 'deduplicated' | 'properties' | 'deleted' | 'skipped';

/**
 * Pushes one local file: deployed by checksum first (the other side may hold the content under
 * another path: no bytes sent), uploaded when it does not have it.
 */
export async function pushFile(
  app: FastifyInstance,
  remote: Remote,
  repoKey: string,
  entry: LocalEntry,
  onlyProperties: boolean,
  syncProperties: boolean,
  /** Whether the other deployment holds the content, when asked beforehand: a file it lacks is sent at once. */
  targetHolds?: boolean,
): Promise<{ outcome: Outcome; bytes: number }> {
  const checksums = await checksumsOf(app.db, entry.sha256);
  const target = `/artifactory/${encodeURIComponent(remote.repo)}/${encodePath(entry.path)}${syncProperties ? matrixOf(entry.properties) : ''}`;
  const headers = {
    'x-checksum-sha256': entry.sha256,
    'x-checksum-sha1': checksums.sha1,
    'x-checksum-md5': checksums.md5,
  };
  if (targetHolds !== false) {
    const byChecksum = await remoteFetch(remote, target, {
      method: 'PUT',
      headers: { ...headers, 'x-checksum-deploy': 'true' },
    });
    await byChecksum.body?.cancel().catch(() => undefined);
    if (byChecksum.status === 200 || byChecksum.status === 201)
      return { outcome: onlyProperties ? 'properties' : 'deduplicated', bytes: 0 };
    // one it was said to hold and no longer does (removed meanwhile) goes with its bytes
    if (byChecksum.status !== 404) throw new Error(`the other deployment answered ${byChecksum.status}`);
  }
  const content = systemContent(app);
  const item = await content.stored(repoKey, entry.path);
  if (!item) return { outcome: 'skipped', bytes: 0 };
  const res = await remoteFetch(remote, target, {
    method: 'PUT',
    headers: { ...headers, 'content-length': String(entry.size), 'content-type': 'application/octet-stream' },
    body: content.open(item),
  });
  const text = await res.text().catch(() => '');
  if (res.status !== 200 && res.status !== 201)
    throw new Error(`the other deployment answered ${res.status}: ${text.slice(0, 200)}`);
  return { outcome: 'transferred', bytes: entry.size };
}

/** Pulls one remote file: deployed by checksum when this deployment holds the content already, downloaded otherwise. */
async function pullFile(
  app: FastifyInstance,
  remote: Remote,
  repoKey: string,
  entry: ManifestEntry,
  onlyProperties: boolean,
  syncProperties: boolean,
): Promise<{ outcome: Outcome; bytes: number }> {
  let properties: Properties = {};
  if (syncProperties && entry.props) {
    const res = await remoteFetch(
      remote,
      `/artifactory/api/storage/${encodeURIComponent(remote.repo)}/${encodePath(entry.path)}?properties`,
    );
    if (res.status === 200) properties = ((await res.json()) as { properties?: Properties }).properties ?? {};
    else await res.body?.cancel().catch(() => undefined);
  }
  const content = systemContent(app);
  const held = await app.db
    .selectFrom('binaries')
    .select('sha256')
    .where('sha256', '=', entry.sha256)
    .executeTakeFirst();
  const base = { repoKey, path: entry.path, properties, checksums: { sha256: entry.sha256 } };
  if (held) {
    await content.deploy({ ...base, body: undefined, contentLength: undefined, checksumDeploy: true });
    return { outcome: onlyProperties ? 'properties' : 'deduplicated', bytes: 0 };
  }
  const res = await remoteFetch(remote, `/artifactory/${encodeURIComponent(remote.repo)}/${encodePath(entry.path)}`);
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`the other deployment answered ${res.status}`);
  }
  await content.deploy({
    ...base,
    body: Readable.fromWeb(res.body as unknown as WebReadableStream),
    contentLength: entry.size,
    checksumDeploy: false,
  });
  return { outcome: 'transferred', bytes: entry.size };
}

class RunLog {
  readonly lines: string[] = [];
  add(line: string): void {
    if (this.lines.length < OUTPUT_LINES) this.lines.push(`${new Date().toISOString()} ${line}`);
    else if (this.lines.length === OUTPUT_LINES) this.lines.push('… (further lines left out)');
  }
}

/** The durable-work kernel's kind for a replication's run: its key is the run's id, its serial key the replication's. */
export const REPLICATION_RUN = 'replication-run';

interface RunPayload {
  replicationKey: string;
  trigger: Trigger;
}

const serialOf = (key: string) => `replication:${key}`;

/** Whether a run of this replication is under way (or waits for a node to take it over), on any node. */
export async function isRunning(app: FastifyInstance, key: string): Promise<boolean> {
  return (await app.work.list(REPLICATION_RUN, { serialKey: serialOf(key), unfinished: true, limit: 1 })).length > 0;
}

/**
 * Starts a run of a replication as a task of the durable-work kernel, on this node: its row is
 * written first (so that its id answers at once), and a node that dies during the run leaves it to
 * another, which runs it again from the comparison of the two sides (what was sent is not sent
 * twice). Answers the run's id; the run goes on after.
 */
export async function startReplicationRun(app: FastifyInstance, key: string, trigger: Trigger): Promise<string> {
  const id = randomUUID();
  await app.db
    .insertInto('replication_runs')
    .values({
      id,
      replication_key: key,
      trigger,
      status: 'running',
      node_id: app.nodeId,
      started_at: Date.now(),
      finished_at: null,
      ...zero(),
      output: '',
    })
    .execute();
  await app.work.submit<RunPayload>(
    REPLICATION_RUN,
    { replicationKey: key, trigger },
    { key: id, serialKey: serialOf(key), runHere: true },
  );
  return id;
}

/** Defines the replication run's kind of work on this process (a run goes on on any node). */
export function defineReplicationRuns(app: FastifyInstance): void {
  app.work.define<RunPayload, never, null>(REPLICATION_RUN, {
    run: async (task) => {
      await runReplication(app, task.key, task.payload.replicationKey, task.signal);
      return null;
    },
  });
}

/**
 * Runs a replication once, whole: the two sides' manifests compared, what differs sent (four
 * files at a time), deletions mirrored when asked; progress is kept in its run row as it goes.
 */
async function runReplication(app: FastifyInstance, id: string, key: string, signal: AbortSignal): Promise<void> {
  const row = await app.db.selectFrom('replications').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
  const counters = zero();
  const log = new RunLog();
  const started = Date.now();
  const before = await app.db.selectFrom('replication_runs').selectAll().where('id', '=', id).executeTakeFirst();
  if (before?.output) {
    // taken over: what the node before did still counts, and the run starts again from the
    // comparison of the two sides, which leaves out what it sent
    for (const name of [
      'files_transferred',
      'files_deduplicated',
      'files_properties',
      'files_deleted',
      'files_failed',
      'bytes_transferred',
    ] as const)
      counters[name] = Number(before[name]);
    for (const line of before.output.split('\n')) log.lines.push(line);
    log.add(`Taken over from ${before.node_id}: comparing the two sides again.`);
  }
  await app.db
    .updateTable('replication_runs')
    .set({ node_id: app.nodeId, status: 'running' })
    .where('id', '=', id)
    .execute();
  let savedAt = 0;
  const save = async (final?: string) => {
    savedAt = Date.now();
    await app.db
      .updateTable('replication_runs')
      .set({
        ...counters,
        ...(final ? { status: final, finished_at: Date.now() } : {}),
        output: log.lines.join('\n'),
      })
      .where('id', '=', id)
      .execute();
  };
  try {
    const remote = await remoteOf(app, row);
    const push = row.strategy === 'push';
    log.add(`${push ? 'Push' : 'Pull'} ${row.repo_key} ${push ? '→' : '←'} ${remote.url} ${row.remote_repo_key}`);
    const [local, other] = await Promise.all([localManifest(app.db, row.repo_key), remoteManifest(remote)]);
    const source: Map<string, ManifestEntry> = push ? local : other;
    const target: Map<string, ManifestEntry> = push ? other : local;
    const syncProperties = row.sync_properties === 1;
    const work: { entry: ManifestEntry; onlyProperties: boolean }[] = [];
    for (const entry of source.values()) {
      if (!covered(row, entry.path)) continue;
      const there = target.get(entry.path);
      if (there && there.sha256 === entry.sha256 && (!syncProperties || there.props === entry.props)) continue;
      work.push({ entry, onlyProperties: there?.sha256 === entry.sha256 });
    }
    const deletions =
      row.sync_deletes === 1 ? [...target.keys()].filter((path) => !source.has(path) && covered(row, path)) : [];
    counters.files_total = work.length + deletions.length;
    log.add(
      `Compared ${source.size} files with ${target.size}: ${work.length} to send, ${deletions.length} to delete.`,
    );
    await save();
    let next = 0;
    const worker = async () => {
      for (;;) {
        // a run told to stop (its node stops: another takes it over) ends between two files
        signal.throwIfAborted();
        const i = next++;
        if (i >= work.length) return;
        const { entry, onlyProperties } = work[i]!;
        try {
          const done = push
            ? await pushFile(app, remote, row.repo_key, local.get(entry.path)!, onlyProperties, syncProperties)
            : await pullFile(app, remote, row.repo_key, entry, onlyProperties, syncProperties);
          count(counters, done);
        } catch (error) {
          counters.files_failed++;
          log.add(`Failed ${entry.path}: ${error instanceof Error ? error.message : String(error)}`);
        }
        counters.files_done++;
        if (Date.now() - savedAt > 1000) await save();
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    for (const path of deletions) {
      try {
        if (push) {
          const res = await remoteFetch(remote, `/artifactory/${encodeURIComponent(remote.repo)}/${encodePath(path)}`, {
            method: 'DELETE',
          });
          await res.body?.cancel().catch(() => undefined);
          if (res.status >= 300 && res.status !== 404) throw new Error(`the other deployment answered ${res.status}`);
        } else await systemContent(app).remove(row.repo_key, path);
        counters.files_deleted++;
      } catch (error) {
        counters.files_failed++;
        log.add(`Failed to delete ${path}: ${error instanceof Error ? error.message : String(error)}`);
      }
      counters.files_done++;
    }
    log.add(
      `Done in ${((Date.now() - started) / 1000).toFixed(1)} s: ${counters.files_transferred} sent (${counters.bytes_transferred} bytes), ${counters.files_deduplicated} by checksum, ${counters.files_properties} properties, ${counters.files_deleted} deleted, ${counters.files_failed} failed.`,
    );
    await save(counters.files_failed ? 'partial' : 'success');
  } catch (error) {
    if (signal.aborted) throw error;
    log.add(`Failed: ${error instanceof Error ? error.message : String(error)}`);
    await save('failed');
  }
}

function count(counters: Counters, done: { outcome: Outcome; bytes: number }): void {
  if (done.outcome === 'transferred') counters.files_transferred++;
  if (done.outcome === 'deduplicated') counters.files_deduplicated++;
  if (done.outcome === 'properties') counters.files_properties++;
  counters.bytes_transferred += done.bytes;
}

/**
 * One change pushed at once (an event replication): the file sent (unless the other side holds
 * it already — no ping-pong between two deployments replicating to each other), or deleted
 * there. Counted in the replication's run row of the hour.
 */
export async function pushChange(
  app: FastifyInstance,
  row: ReplicationsTable,
  path: string,
  deleted: boolean,
): Promise<void> {
  if (!covered(row, path)) return;
  const remote = await remoteOf(app, row);
  const counters = zero();
  let line = '';
  if (deleted) {
    if (row.sync_deletes !== 1) return;
    const res = await remoteFetch(remote, `/artifactory/${encodeURIComponent(remote.repo)}/${encodePath(path)}`, {
      method: 'DELETE',
    });
    await res.body?.cancel().catch(() => undefined);
    if (res.status >= 300 && res.status !== 404) throw new Error(`the other deployment answered ${res.status}`);
    counters.files_deleted = 1;
    line = `Deleted ${path}`;
  } else {
    const local = await localEntry(app.db, row.repo_key, path);
    if (!local) return;
    const head = await remoteFetch(remote, `/artifactory/${encodeURIComponent(remote.repo)}/${encodePath(path)}`, {
      method: 'HEAD',
    });
    await head.body?.cancel().catch(() => undefined);
    if (head.status === 200 && head.headers.get('x-checksum-sha256') === local.sha256 && row.sync_properties !== 1)
      return;
    const done = await pushFile(app, remote, row.repo_key, local, false, row.sync_properties === 1);
    count(counters, done);
    line = `Sent ${path} (${done.outcome})`;
  }
  counters.files_total = counters.files_done = 1;
  await recordEventRun(app, row.key, counters, line);
}

async function recordEventRun(app: FastifyInstance, key: string, add: Counters, line: string): Promise<void> {
  const now = Date.now();
  const hour = now - (now % 3_600_000);
  const id = `event:${key}:${hour}`;
  await app.db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom('replication_runs').selectAll().where('id', '=', id).executeTakeFirst();
    if (!current) {
      await trx
        .insertInto('replication_runs')
        .values({
          id,
          replication_key: key,
          trigger: 'event',
          status: 'success',
          node_id: app.nodeId,
          started_at: now,
          finished_at: now,
          ...add,
          output: `${new Date(now).toISOString()} ${line}`,
        })
        .execute();
      return;
    }
    const sum = Object.fromEntries(
      (Object.keys(add) as (keyof Counters)[]).map((k) => [k, Number(current[k]) + add[k]]),
    ) as unknown as Counters;
    const lines = current.output.split('\n');
    await trx
      .updateTable('replication_runs')
      .set({
        ...sum,
        finished_at: now,
        output: (lines.length < OUTPUT_LINES ? [...lines, `${new Date(now).toISOString()} ${line}`] : lines).join('\n'),
      })
      .where('id', '=', id)
      .execute();
  });
}
