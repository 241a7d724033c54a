import type { FastifyInstance } from 'fastify';
import { followConfigWhileOpen } from '../../core/config-cache.js';
import { checkAll } from './deployments.service.js';

const JOB = 'deployment-status';
const followers = new WeakMap<FastifyInstance, () => Promise<void>>();

/**
 * While deployments are registered, a leased job looks at them every 20 seconds (one node at a
 * time); a deployment with none has no such job (and no runs to keep). Every node follows the
 * registrations as configuration changes reach it; the node that made one, at once.
 */
export function registerDeploymentPolling(app: FastifyInstance): void {
  let registered = false;
  const follow = async () => {
    const any = await app.db.selectFrom('deployments').select('id').limit(1).executeTakeFirst();
    if (any && !registered) app.jobs.register(JOB, '*/20 * * * * *', () => checkAll(app));
    if (!any && registered) app.jobs.unregister(JOB);
    registered = Boolean(any);
  };
  followers.set(app, follow);
  app.addHook('onReady', follow);
  followConfigWhileOpen(app, () => void follow().catch(() => undefined));
  app.addHook('onClose', async () => {
    followers.delete(app);
  });
}

/** After a deployment is registered or deleted on this node. */
export function followRegistrations(app: FastifyInstance): Promise<void> {
  return followers.get(app)?.() ?? Promise.resolve();
}
