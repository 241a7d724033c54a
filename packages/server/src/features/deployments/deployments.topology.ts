import type { FastifyRequest } from 'fastify';
import {
  FEDERATION_ENTITY_LABELS,
  THIS_DEPLOYMENT,
  type Deployment,
  type DeploymentLocation,
  type FederationEntityType,
  type P2pUsage,
  type Topology,
  type TopologyLink,
  type TopologyNode,
} from '@arca/contracts';
import { BUILD } from '../../core/build-info.js';
import { baseUrlOf } from '../../core/base-url.js';
import { auditActor } from '../../core/audit.js';
import { recordChange } from '../../core/changes.js';
import { getSetting, putSetting, serverNameOf } from '../../core/settings.store.js';
import { artifactoryStorageInfo } from '../artifacts/index.js';
import { call, deploymentToken, listDeployments } from './deployments.service.js';

type StorageAnswer = Awaited<ReturnType<typeof artifactoryStorageInfo>>;

function storageOf(answer: StorageAnswer | undefined): TopologyNode['storage'] {
  if (!answer) return null;
  return {
    artifacts_count: answer.binariesSummary.artifactsCount,
    artifacts_size: answer.binariesSummary.artifactsSize,
    binaries_size: answer.binariesSummary.binariesSize,
    repositories: answer.repositoriesSummaryList.filter((r) => r.repoKey !== 'TOTAL').length,
    used_space: answer.fileStoreSummary.usedSpace,
    free_space: answer.fileStoreSummary.freeSpace,
  };
}

/** A registered deployment's storage, asked with the service token (null when it does not answer). */
async function remoteStorage(request: FastifyRequest, deployment: Deployment): Promise<TopologyNode['storage']> {
  if (deployment.status !== 'ONLINE' && deployment.status !== 'PARTIAL') return null;
  try {
    const token = await deploymentToken(request.server, deployment.id);
    const answer = await call(request.server, deployment.url, '/artifactory/api/storageinfo', { token });
    return answer.status === 200 ? storageOf(JSON.parse(answer.body) as StorageAnswer) : null;
  } catch {
    return null;
  }
}

/**
 * The fleet as the topology dashboard draws it: this deployment and each registered one (status,
 * version, services and location from the last look; storage asked now), federation links
 * (source to target) and replication links (in the direction the bytes travel).
 */
export async function topology(request: FastifyRequest): Promise<Topology> {
  const app = request.server;
  const deployments = await listDeployments(app.db);
  const own = await artifactoryStorageInfo(app.db, app.binaries).catch(() => undefined);
  const self: TopologyNode = {
    id: THIS_DEPLOYMENT,
    name: await serverNameOf(app.db, app.config.serverName, 'Arca'),
    url: baseUrlOf(request),
    self: true,
    status: 'ONLINE',
    status_details: 'The management deployment (this one).',
    version: BUILD.version,
    services: [
      { name: 'artifactory', status: 'ONLINE' },
      { name: 'access', status: 'ONLINE' },
    ],
    location: await getSetting(app.db, 'deployment.location'),
    tags: [],
    storage: storageOf(own),
  };
  const others: TopologyNode[] = await Promise.all(
    deployments.map(async (d) => ({
      id: d.id,
      name: d.name,
      url: d.url,
      self: false,
      status: d.status,
      status_details: d.status_details,
      version: d.version,
      services: d.services,
      location: d.location,
      tags: d.tags,
      storage: await remoteStorage(request, d),
    })),
  );
  const links: TopologyLink[] = [];
  for (const row of await app.db.selectFrom('federations').selectAll().execute()) {
    for (const target of JSON.parse(row.targets) as { id: string }[])
      links.push({
        from: row.source_id,
        to: target.id,
        kind: 'federation',
        label: (JSON.parse(row.entity_types) as FederationEntityType[])
          .map((t) => FEDERATION_ENTITY_LABELS[t])
          .join(', '),
        status: '',
      });
  }
  for (const row of await app.db.selectFrom('replications').selectAll().execute()) {
    const last = await app.db
      .selectFrom('replication_runs')
      .select('status')
      .where('replication_key', '=', row.key)
      .orderBy('started_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const push = row.strategy === 'push';
    links.push({
      from: push ? THIS_DEPLOYMENT : row.deployment_id,
      to: push ? row.deployment_id : THIS_DEPLOYMENT,
      kind: 'replication',
      label: `${row.key}: ${push ? row.repo_key : row.remote_repo_key} → ${push ? row.remote_repo_key : row.repo_key}`,
      status: last?.status ?? '',
    });
  }
  return { nodes: [self, ...others], links, checked_at: new Date().toISOString() };
}

/** Sets where this deployment is (the topology map draws it there). */
export async function setOwnLocation(request: FastifyRequest, location: DeploymentLocation): Promise<void> {
  const db = request.server.db;
  await db.transaction().execute(async (trx) => {
    await putSetting(trx, 'deployment.location', location);
    await recordChange(trx, auditActor(request), {
      audit: { category: 'system', action: 'set deployment location', target: 'this deployment', after: location },
    });
  });
}

/**
 * The usage of the paths between deployments (`system/usage/p2p`): the `top` deployments by the
 * bytes replications moved to or from them in the range (a week by default), with files and runs.
 */
export async function p2pUsage(
  request: FastifyRequest,
  query: { top: number; from?: number | undefined; to?: number | undefined },
): Promise<P2pUsage> {
  const db = request.server.db;
  const to = query.to ?? Date.now();
  const from = query.from ?? to - 7 * 86_400_000;
  const rows = await db
    .selectFrom('replication_runs as r')
    .innerJoin('replications as p', 'p.key', 'r.replication_key')
    .innerJoin('deployments as d', 'd.id', 'p.deployment_id')
    .select((eb) => [
      'd.id',
      'd.name',
      eb.fn.sum<number | string>('r.bytes_transferred').as('bytes'),
      eb.fn.sum<number | string>('r.files_transferred').as('files'),
      eb.fn.countAll<number | string>().as('runs'),
    ])
    .where('r.started_at', '>=', from)
    .where('r.started_at', '<=', to)
    .groupBy(['d.id', 'd.name'])
    .execute();
  const top = rows
    .map((r) => ({ id: r.id, name: r.name, bytes: Number(r.bytes), files: Number(r.files), runs: Number(r.runs) }))
    .sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name))
    .slice(0, query.top);
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), top };
}
