import type { FastifyInstance } from 'fastify';
import { deleteExpiredSessions } from './auth.store.js';
import { purgeTokens } from '../identity/index.js';

/** Hourly: spent one-time sign-in tokens and expired sessions go. */
export function registerAuthJobs(app: FastifyInstance): void {
  app.jobs.register('sign-in-cleanup', '7 * * * *', async () => {
    await purgeTokens(app.db);
    await deleteExpiredSessions(app.db, Date.now());
  });
}
