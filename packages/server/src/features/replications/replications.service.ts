import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Cron } from 'croner';
import {
  REPLICATION_MESSAGES,
  formatMessage,
  replicationBodySchema,
  type Replication,
  type ReplicationBody,
  type ReplicationRun,
  type StoredEvent,
} from '@arca/contracts';
import type { ReplicationRunsTable, ReplicationsTable } from '../../db/schema.js';
import { auditActor } from '../../core/audit.js';
import { recordChange } from '../../core/changes.js';
import { followConfigWhileOpen } from '../../core/config-cache.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { OutboxConsumer } from '../../core/outbox.js';
import { callDeployment, deploymentToken } from '../deployments/index.js';
import { defineReplicationRuns, isRunning, pushChange, startReplicationRun } from './replications.engine.js';

const JOB = (key: string) => `replication:${key}`;

function runAnswer(
  run: ReplicationRunsTable,
  row: ReplicationsTable,
  deployments: Map<string, string>,
): ReplicationRun {
  return {
    id: run.id,
    replication_key: run.replication_key,
    repo_key: row.repo_key,
    deployment: deployments.get(row.deployment_id) ?? row.deployment_id,
    remote_repo_key: row.remote_repo_key,
    strategy: row.strategy as ReplicationRun['strategy'],
    trigger: run.trigger as ReplicationRun['trigger'],
    status: run.status as ReplicationRun['status'],
    started: new Date(Number(run.started_at)).toISOString(),
    finished: run.finished_at === null ? null : new Date(Number(run.finished_at)).toISOString(),
    files_total: Number(run.files_total),
    files_done: Number(run.files_done),
    files_transferred: Number(run.files_transferred),
    files_deduplicated: Number(run.files_deduplicated),
    files_properties: Number(run.files_properties),
    files_deleted: Number(run.files_deleted),
    files_failed: Number(run.files_failed),
    bytes_transferred: Number(run.bytes_transferred),
  };
}

async function deploymentNames(app: FastifyInstance): Promise<Map<string, string>> {
  return new Map((await app.db.selectFrom('deployments').select(['id', 'name']).execute()).map((d) => [d.id, d.name]));
}

function nextRun(cron: string): string | null {
  if (!cron) return null;
  try {
    return new Cron(cron, { paused: true }).nextRun()?.toISOString() ?? null;
  } catch {
    return null;
  }
}

export async function listReplications(app: FastifyInstance): Promise<Replication[]> {
  const rows = await app.db.selectFrom('replications').selectAll().orderBy('key').execute();
  const names = await deploymentNames(app);
  const answers: Replication[] = [];
  for (const row of rows) {
    const last = await app.db
      .selectFrom('replication_runs')
      .selectAll()
      .where('replication_key', '=', row.key)
      .orderBy('started_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    answers.push({
      key: row.key,
      repo_key: row.repo_key,
      deployment_id: row.deployment_id,
      deployment: names.get(row.deployment_id) ?? row.deployment_id,
      remote_repo_key: row.remote_repo_key,
      strategy: row.strategy as Replication['strategy'],
      cron: row.cron,
      event_based: row.event_based === 1,
      enabled: row.enabled === 1,
      include_patterns: JSON.parse(row.include_patterns) as string[],
      exclude_patterns: JSON.parse(row.exclude_patterns) as string[],
      sync_deletes: row.sync_deletes === 1,
      sync_properties: row.sync_properties === 1,
      next_run: row.enabled === 1 ? nextRun(row.cron) : null,
      last_run: last ? runAnswer(last, row, names) : null,
      created: new Date(Number(row.created_at)).toISOString(),
    });
  }
  return answers;
}

export async function getReplication(app: FastifyInstance, key: string): Promise<Replication> {
  const found = (await listReplications(app)).find((r) => r.key === key);
  if (!found) throw notFound(REPLICATION_MESSAGES.notFound);
  return found;
}

/** Checks what a replication names: a local repository here, a registered deployment, a local repository there. */
async function checked(request: FastifyRequest, body: ReplicationBody) {
  const app = request.server;
  const parsed = replicationBodySchema.parse(body);
  const repo = await app.db
    .selectFrom('repositories')
    .select('rclass')
    .where('key', '=', parsed.repo_key)
    .executeTakeFirst();
  if (repo?.rclass !== 'local') throw badRequest(REPLICATION_MESSAGES.notLocal, 'repo_key');
  const deployment = await app.db
    .selectFrom('deployments')
    .select(['id', 'url'])
    .where('id', '=', parsed.deployment_id)
    .executeTakeFirst();
  if (!deployment) throw badRequest(REPLICATION_MESSAGES.unknownDeployment, 'deployment_id');
  if (parsed.cron) {
    try {
      new Cron(parsed.cron, { paused: true });
    } catch {
      throw badRequest('Invalid cron expression', 'cron');
    }
  }
  const there = await callDeployment(
    app,
    deployment.url,
    `/artifactory/api/repositories/${encodeURIComponent(parsed.remote_repo_key)}`,
    {
      token: await deploymentToken(app, deployment.id),
    },
  ).catch(() => undefined);
  const rclass = there?.status === 200 ? (JSON.parse(there.body) as { rclass?: string }).rclass : undefined;
  if (rclass !== 'local') throw badRequest(REPLICATION_MESSAGES.remoteRepo, 'remote_repo_key');
  return parsed;
}

const columns = (parsed: ReturnType<typeof replicationBodySchema.parse>) => ({
  repo_key: parsed.repo_key,
  deployment_id: parsed.deployment_id,
  remote_repo_key: parsed.remote_repo_key,
  strategy: parsed.strategy,
  cron: parsed.cron,
  event_based: parsed.event_based ? 1 : 0,
  enabled: parsed.enabled ? 1 : 0,
  include_patterns: JSON.stringify(parsed.include_patterns),
  exclude_patterns: JSON.stringify(parsed.exclude_patterns),
  sync_deletes: parsed.sync_deletes ? 1 : 0,
  sync_properties: parsed.sync_properties ? 1 : 0,
});

export async function createReplication(request: FastifyRequest, body: ReplicationBody): Promise<Replication> {
  const app = request.server;
  const parsed = await checked(request, body);
  const taken = await app.db.selectFrom('replications').select('key').where('key', '=', parsed.key).executeTakeFirst();
  if (taken) throw conflict(formatMessage(REPLICATION_MESSAGES.keyTaken, { key: parsed.key }), 'key');
  const now = Date.now();
  await app.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('replications')
      .values({ key: parsed.key, ...columns(parsed), created_at: now, updated_at: now })
      .execute();
    await recordChange(trx, auditActor(request), {
      audit: { category: 'repository', action: 'create replication', target: parsed.key, after: columns(parsed) },
    });
  });
  await followReplications(app);
  return getReplication(app, parsed.key);
}

export async function updateReplication(
  request: FastifyRequest,
  key: string,
  body: ReplicationBody,
): Promise<Replication> {
  const app = request.server;
  await getReplication(app, key);
  const parsed = await checked(request, { ...body, key });
  await app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('replications')
      .set({ ...columns(parsed), updated_at: Date.now() })
      .where('key', '=', key)
      .execute();
    await recordChange(trx, auditActor(request), {
      audit: { category: 'repository', action: 'update replication', target: key, after: columns(parsed) },
    });
  });
  await followReplications(app);
  return getReplication(app, key);
}

export async function deleteReplication(request: FastifyRequest, key: string): Promise<void> {
  const app = request.server;
  await getReplication(app, key);
  await app.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('replication_runs').where('replication_key', '=', key).execute();
    await trx.deleteFrom('replications').where('key', '=', key).execute();
    await recordChange(trx, auditActor(request), {
      audit: { category: 'repository', action: 'delete replication', target: key },
    });
  });
  await followReplications(app);
}

/** Starts a run now (the console's Run); answers at once with its id. */
export async function startRun(request: FastifyRequest, key: string): Promise<{ message: string; run_id: string }> {
  const app = request.server;
  await getReplication(app, key);
  if (await isRunning(app, key)) throw conflict(REPLICATION_MESSAGES.running);
  const id = await startReplicationRun(app, key, 'manual');
  await recordChange(app.db, auditActor(request), {
    audit: { category: 'repository', action: 'run replication', target: key },
  });
  return { message: REPLICATION_MESSAGES.started, run_id: id };
}

export async function listRuns(
  app: FastifyInstance,
  query: {
    from?: number | undefined;
    to?: number | undefined;
    status?: string | undefined;
    repo?: string | undefined;
    deployment?: string | undefined;
    strategy?: string | undefined;
    limit: number;
  },
): Promise<ReplicationRun[]> {
  const to = query.to ?? Date.now() + 60_000;
  const from = query.from ?? to - 7 * 86_400_000;
  const list = (text: string | undefined) => (text ? text.split(',').filter(Boolean) : []);
  let q = app.db
    .selectFrom('replication_runs as r')
    .innerJoin('replications as p', 'p.key', 'r.replication_key')
    .selectAll('r')
    .select([
      'p.repo_key',
      'p.deployment_id',
      'p.remote_repo_key',
      'p.strategy',
      'p.cron',
      'p.event_based',
      'p.enabled',
      'p.include_patterns',
      'p.exclude_patterns',
      'p.sync_deletes',
      'p.sync_properties',
      'p.created_at',
      'p.updated_at',
      'p.key',
    ])
    .where('r.started_at', '>=', from)
    .where('r.started_at', '<=', to);
  if (list(query.status).length) q = q.where('r.status', 'in', list(query.status));
  if (list(query.repo).length) q = q.where('p.repo_key', 'in', list(query.repo));
  if (list(query.deployment).length) q = q.where('p.deployment_id', 'in', list(query.deployment));
  if (query.strategy) q = q.where('p.strategy', '=', query.strategy);
  const rows = await q.orderBy('r.started_at', 'desc').limit(query.limit).execute();
  const names = await deploymentNames(app);
  return rows.map((row) => runAnswer(row, row, names));
}

export async function runOutput(app: FastifyInstance, id: string): Promise<{ run: ReplicationRun; output: string }> {
  const run = await app.db.selectFrom('replication_runs').selectAll().where('id', '=', id).executeTakeFirst();
  if (!run) throw notFound('No such run.');
  const row = await app.db
    .selectFrom('replications')
    .selectAll()
    .where('key', '=', run.replication_key)
    .executeTakeFirstOrThrow();
  return { run: runAnswer(run, row, await deploymentNames(app)), output: run.output };
}

const followers = new WeakMap<FastifyInstance, () => Promise<void>>();

/** Brings this node's schedules in line with the replications (on every node, as configuration changes reach it). */
function followReplications(app: FastifyInstance): Promise<void> {
  return followers.get(app)?.() ?? Promise.resolve();
}

const CHANGE_EVENTS = new Set([
  'artifact.deployed',
  'artifact.deleted',
  'artifact.property.added',
  'artifact.property.deleted',
]);

/**
 * Replications' runs (tasks of the durable-work kernel), their schedules and the outbox consumer that pushes every change
 * of a repository with an event replication, retried while the other deployment is down.
 */
export function registerReplications(app: FastifyInstance): void {
  const scheduled = new Map<string, string>();
  let open = true;
  const follow = async () => {
    if (!open) return;
    const rows = await app.db.selectFrom('replications').selectAll().execute();
    const wanted = new Map(rows.filter((r) => r.enabled === 1 && r.cron).map((r) => [JOB(r.key), r]));
    for (const [name] of scheduled) {
      if (wanted.has(name)) continue;
      app.jobs.unregister(name);
      scheduled.delete(name);
    }
    for (const [name, row] of wanted) {
      if (scheduled.get(name) === row.cron) continue;
      if (scheduled.has(name)) app.jobs.unregister(name);
      // the schedule starts a run (a task of its own, which a node that dies leaves to another)
      app.jobs.register(name, row.cron, async () => {
        if (await isRunning(app, row.key)) {
          app.log.warn({ replication: row.key }, 'a scheduled replication run skipped: the one before is under way');
          return;
        }
        await startReplicationRun(app, row.key, 'schedule');
      });
      scheduled.set(name, row.cron);
    }
  };
  followers.set(app, follow);
  defineReplicationRuns(app);
  app.addHook('onReady', follow);
  followConfigWhileOpen(app, () => void follow().catch(() => undefined));
  app.addHook('onClose', async () => {
    open = false;
  });

  new OutboxConsumer(
    app,
    'replication',
    async (event: StoredEvent) => {
      if (!CHANGE_EVENTS.has(event.type) || !('repoKey' in event) || !('path' in event)) return;
      const rows = await app.db
        .selectFrom('replications')
        .selectAll()
        .where('repo_key', '=', event.repoKey)
        .where('strategy', '=', 'push')
        .where('event_based', '=', 1)
        .where('enabled', '=', 1)
        // a replication made later than the change does not replay it: its first run does
        .where('created_at', '<=', event.createdAt)
        .execute();
      for (const row of rows) await pushChange(app, row, event.path, event.type === 'artifact.deleted');
    },
    { retry: { maxAttempts: 100_000, baseDelayMs: 1000, maxDelayMs: 30_000 }, wakeOnRecord: true },
  ).register();
}
