import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WEB_LOGIN_MESSAGES, webLoginSchema } from '@arca/contracts';
import { forbidden, unauthorized } from '../../core/errors.js';
import { audit } from '../../core/audit.js';
import { decideWebLogin, describeWebLogin } from './web-login.service.js';

const params = z.object({ id: z.string().min(1).max(64) });

/**
 * The console's side of a command-line client's browser sign-in: the signed-in user sees who
 * asks, then approves or denies. Only a console session answers (it passed the second factor);
 * a token or password cannot approve a request for more tokens.
 */
export const webLoginRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/ui/auth/web-login/:id',
    { config: { access: 'user' }, schema: { params, response: { 200: webLoginSchema } } },
    (request) => describeWebLogin(app.db, request.params.id, request.ip),
  );

  for (const decision of ['approve', 'deny'] as const) {
    app.post(
      `/ui/auth/web-login/:id/${decision}`,
      { config: { access: 'user' }, schema: { params } },
      async (request, reply) => {
        const { principal } = request;
        if (principal.kind !== 'user') throw unauthorized(WEB_LOGIN_MESSAGES.needsSession);
        if (principal.via !== 'session') throw forbidden(WEB_LOGIN_MESSAGES.needsSession);
        await decideWebLogin(app.db, request.params.id, principal.user, decision === 'approve');
        const login = await describeWebLogin(app.db, request.params.id, request.ip);
        await audit(request, {
          category: 'auth',
          action: decision === 'approve' ? 'approve web sign-in' : 'deny web sign-in',
          target: principal.user.name,
          message: `${login.client} on ${login.hostname} from ${login.sourceIp}`,
        });
        return reply.status(204).send();
      },
    );
  }
};
