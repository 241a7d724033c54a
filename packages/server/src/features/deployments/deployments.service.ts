import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  DEPLOYMENT_MESSAGES,
  deploymentBodySchema,
  deploymentUpdateSchema,
  formatMessage,
  restLicensesSchema,
  type RestLicenses,
  type Deployment,
  type DeploymentBody,
  type DeploymentStatus,
  type DeploymentUpdate,
  type ServiceType,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { DeploymentsTable } from '../../db/schema.js';
import { auditActor } from '../../core/audit.js';
import { baseUrlOf } from '../../core/base-url.js';
import { recordChange } from '../../core/changes.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { OutboundRefused, outboundRequest, type OutboundAnswer } from '../../core/outbound.js';
import { registerSecretSource, seal, unseal } from '../../core/sealing.js';
import { allowedOutboundHosts, serverNameOf } from '../../core/settings.store.js';

const SEAL_CONTEXT = (id: string) => `deployment:${id}`;
const TIMEOUTS = { connectMs: 5_000, firstByteMs: 10_000, idleMs: 10_000 };

/** What a look at a deployment found. */
export interface Probe {
  status: DeploymentStatus;
  status_details: string;
  service_type: ServiceType;
  services: { name: string; status: string }[];
  version: string;
  /** What it reports of its licences: nodes online, projects, the ids of its licences in force (JSON). */
  nodes: number;
  projects: number;
  license_ids: string;
}

function answerOf(row: DeploymentsTable): Deployment {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    tags: JSON.parse(row.tags) as string[],
    location: JSON.parse(row.location) as Deployment['location'],
    status: row.status as DeploymentStatus,
    status_details: row.status_details,
    service_type: row.service_type as ServiceType,
    services: JSON.parse(row.services) as Probe['services'],
    version: row.version,
    checked_at: row.checked_at === null ? null : new Date(Number(row.checked_at)).toISOString(),
    created: new Date(Number(row.created_at)).toISOString(),
    created_by: row.created_by,
    nodes: row.nodes,
    projects: row.projects,
    licenses: JSON.parse(row.license_ids) as string[],
  };
}

const rootOf = (url: string) => url.replace(/\/+$/, '').replace(/\/(artifactory|ui)$/, '');

/** A call to a deployment's API (by its registered URL), through the outbound policy. */
export async function call(
  app: FastifyInstance,
  url: string,
  path: string,
  options: { method?: string; token?: string; basic?: string; body?: unknown } = {},
): Promise<OutboundAnswer> {
  return outboundRequest(`${rootOf(url)}${path}`, {
    method: options.method ?? 'GET',
    headers: {
      accept: 'application/json',
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.basic ? { authorization: `Basic ${options.basic}` } : {}),
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    allowed: await allowedOutboundHosts(app.db, app.config.outboundAllowedHosts),
    timeouts: TIMEOUTS,
  });
}

const json = (answer: OutboundAnswer): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(answer.body) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

/**
 * Looks at a deployment: is it an Arca (its version call names Arca's version), do its services
 * answer healthy, does it take the service token. A connection that fails is OFFLINE, a refused
 * token UNAUTHORIZED, a server that is no supported Arca UNAVAILABLE.
 */
export async function probe(app: FastifyInstance, url: string, token: string): Promise<Probe> {
  const down = (details: string): Probe => ({
    status: 'OFFLINE',
    status_details: details,
    service_type: 'UNKNOWN_SERVER',
    services: [],
    version: '',
    nodes: 1,
    projects: 0,
    license_ids: '[]',
  });
  let version: OutboundAnswer;
  try {
    version = await call(app, url, '/artifactory/api/system/version');
  } catch (error) {
    return down(error instanceof OutboundRefused ? error.message : DEPLOYMENT_MESSAGES.unresolved);
  }
  const said = version.status === 200 ? json(version) : undefined;
  const arca = said?.arca as { version?: string } | undefined;
  if (!said) {
    return { ...down(DEPLOYMENT_MESSAGES.notSupported), status: 'UNAVAILABLE', service_type: 'UNKNOWN_SERVER' };
  }
  if (!arca) {
    // an Artifactory, or something that answers as one: not a deployment Arca manages
    return {
      ...down(DEPLOYMENT_MESSAGES.notSupported),
      status: 'UNAVAILABLE',
      service_type: said.version ? 'LEGACY_SERVICE' : 'LEGACY_SERVICE_UNKNOWN_VERSION',
      version: String(said.version ?? ''),
    };
  }
  const health = await call(app, url, '/router/api/v1/system/health').catch(() => undefined);
  const services = (
    (health && (json(health)?.services as { service_id: string; state: string }[] | undefined)) ??
    []
  ).map((s) => ({ name: s.service_id.split('@')[0]!, status: s.state === 'HEALTHY' ? 'ONLINE' : 'OFFLINE' }));
  const me = await call(app, url, '/access/api/v1/tokens', { token }).catch(() => undefined);
  const licensed = me?.status === 200 ? await licensesOf(app, url, token) : undefined;
  const base = {
    service_type: 'PLATFORM' as const,
    services,
    version: arca.version ?? '',
    nodes: licensed?.nodes ?? 1,
    projects: licensed?.projects ?? 0,
    license_ids: JSON.stringify(licensed?.ids ?? []),
  };
  if (!me) return { ...base, status: 'OFFLINE', status_details: DEPLOYMENT_MESSAGES.unresolved };
  if (me.status === 401 || me.status === 403) {
    return {
      ...base,
      status: 'UNAUTHORIZED',
      status_details: 'The deployment refused the service token: re-authenticate.',
    };
  }
  const offline = services.filter((s) => s.status !== 'ONLINE');
  if (services.length && offline.length === services.length) {
    return { ...base, status: 'OFFLINE', status_details: 'Every service is offline.' };
  }
  if (offline.length) {
    return { ...base, status: 'PARTIAL', status_details: `Offline: ${offline.map((s) => s.name).join(', ')}.` };
  }
  return { ...base, status: 'ONLINE', status_details: base.version ? '' : DEPLOYMENT_MESSAGES.noVersion };
}

/** What a deployment says of its licences, nodes and projects; undefined when it does not say. */
async function licensesOf(app: FastifyInstance, url: string, token: string): Promise<RestLicenses['arca'] | undefined> {
  const answer = await call(app, url, '/artifactory/api/system/licenses', { token }).catch(() => undefined);
  if (answer?.status !== 200) return undefined;
  const parsed = restLicensesSchema.safeParse(json(answer));
  return parsed.success ? parsed.data.arca : undefined;
}

/** A service token of the target: from a pairing token, or once from a user name and password. */
async function obtainToken(
  request: FastifyRequest,
  url: string,
  credentials: { pairing_token?: string | undefined; username?: string | undefined; password?: string | undefined },
): Promise<string> {
  const app = request.server;
  const me = { name: await serverNameOf(app.db, app.config.serverName, 'Arca'), url: baseUrlOf(request) };
  let answer: OutboundAnswer;
  try {
    answer = credentials.pairing_token
      ? await call(app, url, '/access/api/v1/pairing/exchange', {
          method: 'POST',
          body: { token: credentials.pairing_token, name: me.name, url: me.url },
        })
      : await call(app, url, '/access/api/v1/tokens', {
          method: 'POST',
          basic: Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64'),
          body: {
            description: `Management deployment ${me.name} (${me.url})`,
            scope: 'applied-permissions/admin',
            expires_in: 0,
          },
        });
  } catch (error) {
    throw badRequest(error instanceof OutboundRefused ? error.message : DEPLOYMENT_MESSAGES.unresolved, 'url');
  }
  if (answer.status === 404) throw badRequest(DEPLOYMENT_MESSAGES.notSupported, 'url');
  const token = answer.status === 200 ? json(answer)?.access_token : undefined;
  if (typeof token !== 'string') {
    throw badRequest(
      credentials.pairing_token ? DEPLOYMENT_MESSAGES.pairingRefused : DEPLOYMENT_MESSAGES.credentialsRefused,
      credentials.pairing_token ? 'pairing_token' : 'password',
    );
  }
  return token;
}

registerSecretSource('deployments', async (db) =>
  Promise.all(
    (await db.selectFrom('deployments').select(['id', 'token']).execute()).map(
      async (r) => (await unseal(db, SEAL_CONTEXT(r.id), r.token)) ?? '',
    ),
  ),
);

async function row(db: Db, id: string): Promise<DeploymentsTable> {
  const found = await db.selectFrom('deployments').selectAll().where('id', '=', id).executeTakeFirst();
  if (!found) throw notFound(DEPLOYMENT_MESSAGES.notFound);
  return found;
}

export async function listDeployments(db: Db): Promise<Deployment[]> {
  return (await db.selectFrom('deployments').selectAll().orderBy('name').execute()).map(answerOf);
}

export async function getDeployment(db: Db, id: string): Promise<Deployment> {
  return answerOf(await row(db, id));
}

async function nameFree(db: Db, name: string, except = ''): Promise<void> {
  const other = await db.selectFrom('deployments').select('id').where('name', '=', name).executeTakeFirst();
  if (other && other.id !== except) throw conflict(formatMessage(DEPLOYMENT_MESSAGES.nameTaken, { name }), 'name');
}

/**
 * Registers a deployment: its service token obtained (the pairing token is spent, a password
 * used once and forgotten), a first look taken; only an Arca is registered.
 */
export async function registerDeployment(request: FastifyRequest, body: DeploymentBody): Promise<Deployment> {
  const app = request.server;
  const parsed = deploymentBodySchema.parse(body);
  await nameFree(app.db, parsed.name);
  const token = await obtainToken(request, parsed.url, parsed);
  const looked = await probe(app, parsed.url, token);
  if (looked.service_type !== 'PLATFORM') throw badRequest(DEPLOYMENT_MESSAGES.notSupported, 'url');
  const id = randomUUID();
  const now = Date.now();
  const stored: DeploymentsTable = {
    id,
    name: parsed.name,
    url: rootOf(parsed.url),
    tags: JSON.stringify([...new Set(parsed.tags)]),
    location: JSON.stringify(parsed.location),
    token: await seal(app.db, SEAL_CONTEXT(id), token),
    ...looked,
    services: JSON.stringify(looked.services),
    checked_at: now,
    created_at: now,
    created_by: auditActor(request).actor,
  };
  await app.db.transaction().execute(async (trx) => {
    await trx.insertInto('deployments').values(stored).execute();
    await recordChange(trx, auditActor(request), {
      audit: { category: 'system', action: 'register deployment', target: stored.name, after: { url: stored.url } },
    });
  });
  return answerOf(stored);
}

export async function updateDeployment(
  request: FastifyRequest,
  id: string,
  body: DeploymentUpdate,
): Promise<Deployment> {
  const db = request.server.db;
  const before = await row(db, id);
  const parsed = deploymentUpdateSchema.parse(body);
  await nameFree(db, parsed.name, id);
  const changes = {
    name: parsed.name,
    url: rootOf(parsed.url),
    tags: JSON.stringify([...new Set(parsed.tags)]),
    location: JSON.stringify(parsed.location),
  };
  // A new URL is paired again before anything is sent there: the service token the old address
  // gave is for it alone (a URL changed to an attacker's host must not receive it).
  let paired: { token: string; looked: Probe } | undefined;
  if (changes.url !== before.url) {
    if (!parsed.pairing_token && !(parsed.username && parsed.password))
      throw badRequest(DEPLOYMENT_MESSAGES.urlChangeNeedsPairing, 'pairing_token');
    const token = await obtainToken(request, changes.url, parsed);
    const looked = await probe(request.server, changes.url, token);
    if (looked.service_type !== 'PLATFORM') throw badRequest(DEPLOYMENT_MESSAGES.notSupported, 'url');
    paired = { token, looked };
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('deployments')
      .set({
        ...changes,
        ...(paired
          ? {
              token: await seal(trx, SEAL_CONTEXT(id), paired.token),
              ...paired.looked,
              services: JSON.stringify(paired.looked.services),
              checked_at: Date.now(),
            }
          : {}),
      })
      .where('id', '=', id)
      .execute();
    await recordChange(trx, auditActor(request), {
      audit: {
        category: 'system',
        action: 'update deployment',
        target: parsed.name,
        before: { name: before.name, url: before.url, tags: before.tags },
        after: changes,
      },
    });
  });
  return getDeployment(db, id);
}

export async function deleteDeployment(request: FastifyRequest, id: string): Promise<void> {
  const db = request.server.db;
  const before = await row(db, id);
  // what joins this deployment to others goes first, deliberately
  const federations = await db.selectFrom('federations').select(['source_id', 'targets']).execute();
  if (
    federations.some((f) => f.source_id === id || (JSON.parse(f.targets) as { id: string }[]).some((t) => t.id === id))
  )
    throw conflict(DEPLOYMENT_MESSAGES.inFederation);
  const replications = await db.selectFrom('replications').select('key').where('deployment_id', '=', id).execute();
  if (replications.length) throw conflict(DEPLOYMENT_MESSAGES.hasReplications);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('deployments').where('id', '=', id).execute();
    await recordChange(trx, auditActor(request), {
      audit: { category: 'system', action: 'delete deployment', target: before.name },
    });
  });
}

/** The service token this deployment holds for a registered one. */
export async function deploymentToken(app: FastifyInstance, id: string): Promise<string> {
  const found = await row(app.db, id);
  return (await unseal(app.db, SEAL_CONTEXT(id), found.token)) ?? '';
}

/** Looks at a deployment now and keeps what was found. */
export async function checkDeployment(app: FastifyInstance, id: string): Promise<Deployment> {
  const found = await row(app.db, id);
  const token = (await unseal(app.db, SEAL_CONTEXT(id), found.token)) ?? '';
  const looked = await probe(app, found.url, token);
  await app.db
    .updateTable('deployments')
    .set({ ...looked, services: JSON.stringify(looked.services), checked_at: Date.now() })
    .where('id', '=', id)
    .execute();
  return getDeployment(app.db, id);
}

/** A new service token, from a new pairing token (or a user name and password). */
export async function reauthenticate(
  request: FastifyRequest,
  id: string,
  credentials: { pairing_token?: string | undefined; username?: string | undefined; password?: string | undefined },
): Promise<Deployment> {
  const app = request.server;
  const found = await row(app.db, id);
  const token = await obtainToken(request, found.url, credentials);
  await app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('deployments')
      .set({ token: await seal(trx, SEAL_CONTEXT(id), token) })
      .where('id', '=', id)
      .execute();
    await recordChange(trx, auditActor(request), {
      audit: { category: 'system', action: 'reauthenticate deployment', target: found.name },
    });
  });
  return checkDeployment(app, id);
}

/** Every deployment looked at (the polling job), a few at a time. */
export async function checkAll(app: FastifyInstance): Promise<void> {
  const ids = (await app.db.selectFrom('deployments').select('id').execute()).map((r) => r.id);
  for (let i = 0; i < ids.length; i += 8) {
    await Promise.all(ids.slice(i, i + 8).map((id) => checkDeployment(app, id).catch(() => undefined)));
  }
}
