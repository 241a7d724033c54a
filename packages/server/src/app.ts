import { randomUUID } from 'node:crypto';
import os from 'node:os';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { authPlugin, ensureAdminUser } from './features/auth/index.js';
import { enableItemCache } from './features/artifacts/index.js';
import { BUILD } from './core/build-info.js';
import { consolePlugin } from './core/console.plugin.js';
import { contextPlugin } from './core/context.plugin.js';
import { errorHandlerPlugin } from './core/errors.js';
import { pruneLimits } from './core/rate-limits.js';
import { securityHeadersPlugin } from './core/security-headers.js';
import { restBodiesPlugin } from './core/rest-bodies.js';
import { onAuditRecorded } from './core/changes.js';
import { createLoggers, pruneLogs, requestLogger } from './core/logger.js';
import { Metrics } from './core/metrics.js';
import { heartbeat, markNodeStopped, registerNode, setNodeAddress } from './core/nodes.js';
import { migrateToLatest, openDatabase } from './db/database.js';
import { setPasswordHashCost } from './core/passwords.js';
import { createJobRunner } from './core/jobs.js';
import { createWork, pruneWork } from './core/work.js';
import { pruneOutbox } from './core/outbox.js';
import { registerFeatures, type FeatureServices } from './features/index.js';
import { FORMATS, FORMAT_FACTS, formatRegistry, registerFormats } from './formats/index.js';
import { checkStoreKind } from './features/backup/index.js';
import { LicenseService } from './features/license/index.js';
import type { BinaryStore } from './storage/binary-store.js';
import { openBinaryStore } from './storage/store-factory.js';
import { registerUrlBase } from './core/base-url.js';
import { configCheckDue, disableConfigCache, enableConfigCache } from './core/config-cache.js';
import { useConfiguredOutboundHosts } from './core/outbound-policy.js';

/** A temporary upload file untouched for this long belongs to an upload that will not finish. */
const TEMPORARY_FILE_MAX_IDLE_MS = 60 * 60 * 1000;
/** Apps built in this process so far (a test may run several nodes in one). */
let appsOfProcess = 0;

export interface BuiltApp {
  app: FastifyInstance;
  /** The generated admin password on the very first start, when none was configured. */
  generatedAdminPassword: string | undefined;
  /** What the features made at registration (their background work, for tests to wait on). */
  services: FeatureServices;
}

/**
 * Builds the whole server: database (migrated), licence, first admin, node registration, then the
 * plugins and features. Closing the app stops the heartbeat and closes the database and log files.
 */
export async function buildApp(config: Config): Promise<BuiltApp> {
  // each worker of a cluster is a node of its own (heartbeat, job leases, upload folder, log files)
  const worker = process.env.ARCA_WORKER_INDEX;
  // without a port of its own, a second app of one process (tests of several nodes) is a node of its own
  appsOfProcess += 1;
  const unport = config.port ? String(config.port) : `${process.pid}${appsOfProcess > 1 ? `.${appsOfProcess}` : ''}`;
  const nodeId = config.nodeId || `${os.hostname()}-${unport}${worker ? `-w${worker}` : ''}`;
  const loggers = createLoggers(config, nodeId);
  const metrics = new Metrics();
  const stopAuditLog = onAuditRecorded((who, entry) =>
    loggers.audit({
      actor: who.actor,
      sourceIp: who.sourceIp,
      category: entry.category,
      action: entry.action,
      target: entry.target,
      outcome: entry.outcome ?? 'success',
    }),
  );
  const { db, engine, dataVersion, changeMark, poolStats } = openDatabase({
    ...config,
    onConnectionError: (error) => loggers.jfrt.warn({ err: error }, 'a database connection failed'),
    ...(config.metricsEnabled
      ? {
          onQuery: (ms: number, failed: boolean) => metrics.queryDone(ms / 1000, failed),
        }
      : {}),
  });
  metrics.attach({ db, nodeId, ...(poolStats ? { pool: poolStats } : {}) });
  /** A start that fails before the server exists lets go of what it opened. */
  const abandon = async (error: unknown): Promise<never> => {
    stopAuditLog();
    metrics.close();
    await db.destroy();
    await loggers.close();
    throw error;
  };
  await migrateToLatest(db).catch(abandon);
  setPasswordHashCost(config.passwordHashCost);
  const license = await LicenseService.open(db, config.dataDir, config.licenseIssuerKeys);
  await license.ensureLicense();
  const generatedAdminPassword = await ensureAdminUser(db, config.adminPassword);
  const binaries: BinaryStore = await openBinaryStore(config, nodeId).catch(abandon);
  await checkStoreKind(db, binaries).catch((error: unknown) => {
    binaries.close?.();
    return abandon(error);
  });
  // only uploads nobody has written to for an hour: another node sharing the store may be receiving one now
  const leftovers = await binaries.cleanTemporary(Date.now() - TEMPORARY_FILE_MAX_IDLE_MS);
  if (leftovers) loggers.jfrt.warn({ files: leftovers }, 'removed temporary files of interrupted uploads');

  // one process per node polls the outbox and runs the schedules: the first worker, or the only process
  const polls = config.backgroundWork && (!worker || worker === '1');
  // each process of a node holds its own tasks (the node id names the worker unless it was given)
  const holder = worker && !nodeId.endsWith(`-w${worker}`) ? `${nodeId}-w${worker}` : nodeId;
  const work = createWork({
    db,
    log: loggers.jfrt,
    holder,
    polls,
    pollMs: config.workPollMs,
    // a node id given, or made from a fixed port, names this process across restarts
    reclaimOwn: Boolean(config.nodeId) || config.port !== 0,
  });
  const jobs = createJobRunner({
    work,
    log: loggers.jfrt,
    schedules: polls,
    onRun: (job, outcome, ms) => metrics.jobRun(job, outcome, ms / 1000),
  });
  jobs.register('work-retention', '13 4 * * *', async () => {
    const removed = await pruneWork(db);
    if (removed) loggers.jfrt.info({ tasks: removed }, 'removed finished tasks past their time');
  });
  jobs.register('rate-limit-retention', '53 * * * *', async () => {
    await pruneLimits(db);
  });
  jobs.register('outbox-retention', '47 * * * *', async () => {
    const removed = await pruneOutbox(db, Date.now() - config.outboxRetentionDays * 86_400_000);
    if (removed) loggers.jfrt.info({ events: removed }, 'removed delivered outbox events');
  });
  await registerNode(db, { nodeId, version: BUILD.version, services: config.services });
  if (config.nodeAddress) await setNodeAddress(db, nodeId, config.nodeAddress);
  // the loops every process runs on its own are registered with the kernel, in its one list
  work.every('heartbeat', config.heartbeatMs, () => heartbeat(db, nodeId));
  // each process removes its own rotated log files past retention, at start and daily
  const pruneOwnLogs = () => {
    const removed = pruneLogs(loggers.dir, config.logRetentionDays);
    if (removed) loggers.jfrt.info({ removed }, 'log files past retention removed');
  };
  pruneOwnLogs();
  work.every('log-pruning', 86_400_000, pruneOwnLogs);

  const app: FastifyInstance = Fastify({
    loggerInstance: loggers.jfrt as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    childLoggerFactory: requestLogger,
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    // only the proxies listed are believed about the client's address (default: none)
    ...(config.trustedProxies.length ? { trustProxy: config.trustedProxies } : {}),
    // one line per request (below), not Fastify's two
    logController: new LogController({ disableRequestLogging: true }),
  });
  nameEveryPlugin(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // configuration (repositories, settings, rights) is cached per process, checked once per request
  enableConfigCache(db, dataVersion);
  useConfiguredOutboundHosts(db, config.outboundAllowedHosts);
  enableItemCache(db, changeMark);
  app.addHook('onResponse', (request, reply, done) => {
    if (config.metricsEnabled) {
      metrics.requestDone(
        request.method,
        request.routeOptions.url ?? 'unmatched',
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
    }
    loggers.request({
      reqId: request.id,
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    });
    done();
  });
  // the configuration is checked when the request first reads some: one that reads none pays nothing
  app.addHook('onRequest', (_request, _reply, done) => {
    configCheckDue(db);
    done();
  });
  registerUrlBase(app);
  // the other nodes reach this one at the address it listens on, unless one is configured
  app.addHook('onListen', async () => {
    if (config.nodeAddress) return;
    const bound = app.server.address();
    if (!bound || typeof bound === 'string') return;
    const host = ['0.0.0.0', '::', ''].includes(config.host) ? os.hostname() : config.host;
    await setNodeAddress(db, nodeId, `http://${host.includes(':') ? `[${host}]` : host}:${bound.port}`);
  });
  // A stopping node leaves the load balancer first: no new connections, 503 to any request on a
  // kept-alive one (nginx passes it to another node), Offline in the nodes table. The requests in
  // flight finish within the grace period; what is left after it is cut, then the node closes.
  let cutOff: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    // no heartbeat after the node is marked stopped: it would mark it Online again
    await work.endLoop('heartbeat');
    await markNodeStopped(db, nodeId).catch(() => undefined);
    app.log.info({ graceSeconds: config.stopGraceMs / 1000 }, 'stopping: finishing the requests in flight');
    cutOff = setTimeout(() => app.server.closeAllConnections(), config.stopGraceMs);
    cutOff.unref();
  });
  app.addHook('onClose', async () => {
    disableConfigCache(db);
    clearTimeout(cutOff);
    stopAuditLog();
    metrics.close();
    await markNodeStopped(db, nodeId).catch(() => undefined);
    binaries.close?.();
    await db.destroy();
    await loggers.close();
  });

  await app.register(fastifyCookie);
  // the OpenAPI document is generated from the same zod schemas that validate the calls
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Arca API', version: BUILD.version } },
    transform: jsonSchemaTransform,
  });
  await app.register(contextPlugin, {
    config,
    db,
    dbEngine: engine,
    accessLog: loggers.jfac,
    nodeId,
    flushLogs: loggers.flush,
    binaries,
    jobs,
    work,
    polls,
    formats: FORMAT_FACTS,
  });
  // an empty JSON body is no body (clients POST /api/security/apiKey with the header and nothing else)
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, body.toString(), done),
  );
  app.decorate('license', license);
  app.decorate('metrics', metrics);
  // features reach the formats only through this registry
  app.decorate('formatRegistry', formatRegistry(FORMATS));
  await app.register(errorHandlerPlugin);
  await app.register(securityHeadersPlugin, { secureCookie: config.session.secureCookie });
  await app.register(authPlugin);
  await app.register(restBodiesPlugin);
  const services = await registerFeatures(app);
  await registerFormats(app);
  await app.register(consolePlugin, { webDir: config.webDir });
  app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, () => app.swagger());
  // Fastify runs the close hooks last registered first: this one, before any feature's. The runs
  // under way are told to stop and handed back to the queue for another node, so a feature that
  // waits for its runs on close waits for runs that are ending, never for a whole backup or push.
  app.addHook('onClose', async () => {
    jobs.stop();
    await work.stop();
  });
  return { app, generatedAdminPassword, services };
}

const DISPLAY_NAME = Symbol.for('fastify.display-name');

/**
 * Fastify names every plugin it registers (for its errors). A function without a display name is
 * looked for among every loaded CommonJS module — thousands, with the AWS SDK — at each of the
 * hundred registrations of a start. Every plugin registered here, at any depth (the contexts
 * inherit `register`), is named after its function instead.
 */
function nameEveryPlugin(app: FastifyInstance): void {
  const register = app.register;
  app.register = function (this: FastifyInstance, plugin: unknown, options?: unknown) {
    if (typeof plugin === 'function' && !(DISPLAY_NAME in plugin))
      Object.defineProperty(plugin, DISPLAY_NAME, { value: plugin.name || 'anonymous plugin' });
    return (register as (this: FastifyInstance, ...args: unknown[]) => ReturnType<typeof register>).call(
      this,
      plugin,
      options,
    );
  } as typeof app.register;
}
