import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { migrations } from '../../db/migrations/index.js';

/** How long one readiness check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 3_000;

export interface CheckResult {
  name: 'database' | 'migrations' | 'store';
  ok: boolean;
  message: string;
}

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS / 1000} s`)),
        CHECK_TIMEOUT_MS,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * What readiness rests on: the database answers, every migration this build knows has run, and
 * the binary store can be written. Each check runs on its own, within CHECK_TIMEOUT_MS.
 */
export async function readinessChecks(app: FastifyInstance): Promise<CheckResult[]> {
  const database = withTimeout(sql`select 1`.execute(app.db), 'The database').then(
    (): CheckResult => ({ name: 'database', ok: true, message: 'OK' }),
    (error: unknown): CheckResult => ({
      name: 'database',
      ok: false,
      message: `The database is unreachable: ${messageOf(error)}`,
    }),
  );
  const applied = withTimeout(
    sql<{ name: string }>`select name from kysely_migration`.execute(app.db).then((result) => result.rows),
    'The database',
  ).then(
    (rows): CheckResult => {
      const done = new Set(rows.map((r) => r.name));
      const missing = Object.keys(migrations).filter((name) => !done.has(name));
      return missing.length
        ? { name: 'migrations', ok: false, message: `Migrations not applied: ${missing.join(', ')}` }
        : { name: 'migrations', ok: true, message: 'OK' };
    },
    (error: unknown): CheckResult => ({
      name: 'migrations',
      ok: false,
      message: `The migrations could not be read: ${messageOf(error)}`,
    }),
  );
  const store = withTimeout(app.binaries.check(), 'The binary store').then(
    (): CheckResult => ({ name: 'store', ok: true, message: 'OK' }),
    (error: unknown): CheckResult => ({
      name: 'store',
      ok: false,
      message: `The binary store cannot be written: ${messageOf(error)}`,
    }),
  );
  return Promise.all([database, applied, store]);
}

/**
 * Probes for load balancers and Kubernetes: `/livez` (the process answers), `/readyz` (it can
 * serve: database, migrations, store) and Artifactory's `/router/api/v1/system/health` shape.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/livez', { config: { access: 'public' } }, (_request, reply) => reply.type('text/plain').send('OK'));

  app.get('/readyz', { config: { access: 'public' } }, async (_request, reply) => {
    const checks = await readinessChecks(app);
    const ready = checks.every((c) => c.ok);
    return reply.status(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'not ready',
      checks: Object.fromEntries(checks.map((c) => [c.name, c.message])),
    });
  });

  app.get('/router/api/v1/system/health', { config: { access: 'public' } }, async (_request, reply) => {
    const checks = await readinessChecks(app);
    const failed = checks.filter((c) => !c.ok);
    const state = failed.length ? 'UNHEALTHY' : 'HEALTHY';
    const message = failed.length ? failed.map((c) => c.message).join('; ') : 'OK';
    const services = app.config.services.map((service) => ({
      service_id: `${service === 'access' ? 'jfac' : service === 'artifactory' ? 'jfrt' : service}@${app.nodeId}`,
      node_id: app.nodeId,
      state,
      message,
    }));
    return reply.status(failed.length ? 503 : 200).send({
      router: { node_id: app.nodeId, state: 'HEALTHY', message: 'OK' },
      services,
    });
  });
};
