import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUTH_MESSAGES,
  sshHostKeyBodySchema,
  sshKeyBodySchema,
  sshKeySchema,
  sshServerSchema,
  sshServerSettingsSchema,
} from '@arca/contracts';
import type { UserRow } from '../../db/schema.js';
import { auditActor } from '../../core/audit.js';
import { unauthorized } from '../../core/errors.js';
import { addSshKey, listSshKeys, removeSshKey } from './ssh.keys.js';
import type { SshService } from './ssh.server.js';

const idParams = z.object({ id: z.string().max(64) });

/**
 * The SSH server's settings and host key, every user's SSH keys (administrators); a user's own
 * SSH keys (the profile page).
 */
export const sshRoutes: FastifyPluginAsyncZod<{ ssh: SshService }> = async (app, { ssh }) => {
  app.get(
    '/ui/security/sshServer',
    { config: { access: 'admin' }, schema: { response: { 200: sshServerSchema } } },
    () => ssh.status(),
  );
  app.put(
    '/ui/security/sshServer',
    { config: { access: 'admin' }, schema: { body: sshServerSettingsSchema, response: { 200: sshServerSchema } } },
    async (request) => {
      await ssh.change(request.body, auditActor(request));
      return ssh.status();
    },
  );
  app.post(
    '/ui/security/sshServer/hostKey',
    { config: { access: 'admin' }, schema: { body: sshHostKeyBodySchema, response: { 200: sshServerSchema } } },
    async (request) => {
      await ssh.replaceHostKey(request.body.privateKey, auditActor(request));
      return ssh.status();
    },
  );
  app.get(
    '/ui/security/sshKeys',
    { config: { access: 'admin' }, schema: { response: { 200: z.array(sshKeySchema) } } },
    () => listSshKeys(app.db),
  );
  app.delete(
    '/ui/security/sshKeys/:id',
    { config: { access: 'admin' }, schema: { params: idParams } },
    async (request, reply) => {
      await removeSshKey(request, request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/ui/userProfile/sshKeys',
    { config: { access: 'user' }, schema: { response: { 200: z.array(sshKeySchema) } } },
    (request) => listSshKeys(app.db, signedInUser(request).id),
  );
  app.post(
    '/ui/userProfile/sshKeys',
    { config: { access: 'user' }, schema: { body: sshKeyBodySchema, response: { 201: sshKeySchema } } },
    async (request, reply) => reply.status(201).send(await addSshKey(request, signedInUser(request), request.body)),
  );
  app.delete(
    '/ui/userProfile/sshKeys/:id',
    { config: { access: 'user' }, schema: { params: idParams } },
    async (request, reply) => {
      await removeSshKey(request, request.params.id, signedInUser(request).id);
      return reply.status(204).send();
    },
  );
};

function signedInUser(request: FastifyRequest): UserRow {
  if (request.principal.kind !== 'user') throw unauthorized(AUTH_MESSAGES.loginRequired);
  return request.principal.user;
}
