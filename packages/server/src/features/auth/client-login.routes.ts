import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TOKEN_SCOPE_USER, WEB_LOGIN_MESSAGES, clientLoginRequestSchema } from '@arca/contracts';
import { badRequest, conflict } from '../../core/errors.js';
import { getSecuritySettings } from '../security/index.js';
import { createAccessToken, tokenCreated } from '../tokens/index.js';
import { openWebLogin, pollWebLogin, webLoginExists } from './web-login.service.js';

const BASE = '/access/api/v2/authentication/jfrog_client_login';
/** The poll's id is derived from the session: the client knows both, nobody else knows either. */
const doneIdOf = (session: string) => `done:${session}`;

/** The client's name from its user agent (`jfrog-cli-go/2.52.8 …` → `jfrog-cli-go`). */
const clientOf = (userAgent: string | undefined) => (userAgent ?? 'CLI').split(/[\s/]/)[0]!.slice(0, 32) || 'CLI';

/**
 * A command-line client's browser login (`jf login`): it opens a request under a session id it
 * made, sends the user's browser to the console (`/ui/login?jfClientSession=…`), where the signed-in
 * user compares the code and approves; the client then collects an access token for that user,
 * once. Until the approval it is answered 400; a denied, expired or collected session, 404.
 */
export const clientLoginRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    `${BASE}/request`,
    { config: { access: 'public' }, schema: { body: clientLoginRequestSchema } },
    async (request, reply) => {
      const { session } = request.body;
      try {
        await openWebLogin(
          app.db,
          { client: clientOf(request.headers['user-agent']), hostname: '', sourceIp: request.ip },
          Date.now(),
          { loginId: session, doneId: doneIdOf(session) },
        );
      } catch (error) {
        // the session's row exists: the same session twice, or someone guessing one
        if (await webLoginExists(app.db, session)) throw conflict(WEB_LOGIN_MESSAGES.sessionTaken);
        throw error;
      }
      return reply.status(200).send();
    },
  );

  app.get(
    `${BASE}/token/:session`,
    { config: { access: 'public' }, schema: { params: clientLoginRequestSchema } },
    async (request) => {
      const answer = await pollWebLogin(app.db, doneIdOf(request.params.session));
      if (answer === 'pending') throw badRequest(WEB_LOGIN_MESSAGES.pending);
      const { tokenDefaultExpiryDays } = await getSecuritySettings(app.db, app.config);
      const description = `${clientOf(request.headers['user-agent'])} web login`;
      const expiresIn = tokenDefaultExpiryDays * 86_400;
      const { row, token, refreshToken } = await createAccessToken(
        app.db,
        answer,
        { description, expiresIn, scope: TOKEN_SCOPE_USER, refreshable: true },
        tokenCreated(request, answer.name),
      );
      return {
        token_id: row.id,
        access_token: token,
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
        expires_in: expiresIn,
        scope: TOKEN_SCOPE_USER,
        token_type: 'Bearer',
      };
    },
  );
};
