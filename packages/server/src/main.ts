import cluster from 'node:cluster';
import { buildApp } from './app.js';
import { loadConfig, type Config } from './config.js';
import { serveClusterMetrics } from './core/metrics.js';
import { openDatabase, migrateToLatest } from './db/database.js';
import { ensureAdminUser } from './features/auth/index.js';
import { LicenseService } from './features/license/index.js';

/** Starts Arca with the configuration of the environment and stops it cleanly on SIGINT/SIGTERM. */
export async function main(): Promise<void> {
  const config = loadConfig();
  if (config.workers > 1 && cluster.isPrimary) return primary(config);
  const { app, generatedAdminPassword } = await buildApp(config);
  if (generatedAdminPassword) {
    app.accessLog.warn(
      { user: 'admin' },
      `Created the user 'admin' with the generated password ${generatedAdminPassword} (shown once; set ARCA_ADMIN_PASSWORD to choose it)`,
    );
  }
  // A stop signal is often sent twice (to the process group, then by the primary to its
  // workers): the first starts the stop, the others change nothing, so the requests in flight
  // still finish within the grace period.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping');
    // what is still open past the grace period (and a little for closing) is not waited for
    setTimeout(() => {
      app.log.error({ graceSeconds: config.stopGraceMs / 1000 }, 'the stop outlasted its grace period: exiting');
      process.exit(1);
    }, config.stopGraceMs + 15_000).unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // a worker whose primary is gone (killed, crashed) stops too, rather than holding the port
  if (cluster.isWorker) process.once('disconnect', () => stop('primary gone'));
  const address = await app.listen({ host: config.host, port: config.port });
  if (!cluster.isWorker || process.env.ARCA_WORKER_INDEX === '1') {
    app.log.info(`Arca is listening on ${address}; the console is at ${address}/ui/`);
  }
}

/**
 * The primary of a cluster: runs the start-up tasks once (migrations, the first admin), then
 * forks `config.workers` server processes that share the port, the database and the binary store
 * as nodes do. A worker that dies is replaced; SIGINT/SIGTERM stop every worker cleanly first.
 */
async function primary(config: Config): Promise<void> {
  const { db } = openDatabase(config);
  let generatedAdminPassword: string | undefined;
  try {
    await migrateToLatest(db);
    // the deployment's keys and first licence are made once, not by every worker at the same time
    await (await LicenseService.open(db, config.dataDir, config.licenseIssuerKeys)).ensureLicense();
    generatedAdminPassword = await ensureAdminUser(db, config.adminPassword);
  } finally {
    await db.destroy();
  }
  if (generatedAdminPassword) {
    console.warn(
      `Created the user 'admin' with the generated password ${generatedAdminPassword} (shown once; set ARCA_ADMIN_PASSWORD to choose it)`,
    );
  }
  let stopping = false;
  const fork = (index: number) => {
    const worker = cluster.fork({ ARCA_WORKER_INDEX: String(index) });
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      console.error(`worker ${index} exited (${signal ?? code}); starting another`);
      // a worker that got the stop signal of its process group may exit before the primary hears its own
      setTimeout(() => stopping || fork(index), 1000);
    });
  };
  // a scrape of /metrics reaches one worker, which answers for all of them through the primary
  serveClusterMetrics();
  for (let index = 1; index <= config.workers; index++) fork(index);
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    let left = workers.length;
    if (!left) process.exit(0);
    for (const worker of workers) {
      worker?.once('exit', () => --left === 0 && process.exit(0));
      worker?.process.kill('SIGTERM');
    }
    // a worker past its grace period (and a little for closing) is not waited for any longer
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }, config.stopGraceMs + 15_000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
