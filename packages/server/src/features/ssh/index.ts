import type { FastifyInstance } from 'fastify';
import { SshService } from './ssh.server.js';
import type { TableName } from '../../db/schema.js';

export { sshRoutes } from './ssh.routes.js';

/** The SSH server: follows its settings once the HTTP server listens, stops with the app. */
export function registerSsh(app: FastifyInstance): void {
  const ssh = new SshService(app);
  app.decorate('ssh', ssh);
  app.addHook('onListen', async () => ssh.startFollowing());
  app.addHook('preClose', async () => ssh.close());
}

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['ssh_keys'] as const satisfies readonly TableName[];

declare module 'fastify' {
  interface FastifyInstance {
    /** This node's SSH server. */
    ssh: SshService;
  }
}
