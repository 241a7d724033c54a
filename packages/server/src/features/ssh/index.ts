import type { FastifyInstance } from 'fastify';
import { SshService } from './ssh.server.js';
import type { TableName } from '../../db/schema.js';

export { sshRoutes } from './ssh.routes.js';

export type { SshService };

/** The SSH server: follows its settings once the HTTP server listens, stops with the app. */
export function registerSsh(app: FastifyInstance): SshService {
  const ssh = new SshService(app);
  app.addHook('onListen', async () => ssh.startFollowing());
  app.addHook('preClose', async () => ssh.close());
  return ssh;
}

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['ssh_keys'] as const satisfies readonly TableName[];
