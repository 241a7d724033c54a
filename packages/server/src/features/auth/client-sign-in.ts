import type { FastifyRequest } from 'fastify';
import { TOKEN_SCOPE_USER } from '@arca/contracts';
import type { ClientSignIn } from '../artifacts/index.js';
import { getSetting } from '../../core/settings.store.js';
import { getSecuritySettings } from '../security/index.js';
import { createAccessToken, tokenCreated } from '../tokens/index.js';
import { authenticate } from './auth.service.js';
import { verifyCurrentOtp } from './flows.service.js';
import { REGISTRY_TOKEN_SECONDS, issueRegistryToken } from './registry-token.js';
import { openWebLogin, pollWebLogin } from './web-login.service.js';

/** The sign-in package clients use, for one request's caller: what the formats get through the door. */
export function clientSignIn(request: FastifyRequest): ClientSignIn {
  const { db, config } = request.server;
  return {
    password: (name, password) => authenticate(db, config, name, password),
    secondFactor: (user, code) => verifyCurrentOtp(db, config, user, code),
    async issueToken(user, description) {
      const { tokenDefaultExpiryDays } = await getSecuritySettings(db, config);
      const { token } = await createAccessToken(
        db,
        user,
        { description, expiresIn: tokenDefaultExpiryDays * 86_400, scope: TOKEN_SCOPE_USER },
        tokenCreated(request, user.name, description),
      );
      return token;
    },
    openWebLogin: (client) => openWebLogin(db, { ...client, sourceIp: request.ip }),
    pollWebLogin: (doneId) => pollWebLogin(db, doneId),
    async registryToken() {
      return { token: await issueRegistryToken(db, request.principal), seconds: REGISTRY_TOKEN_SECONDS };
    },
    anonymousAccess: async () => Boolean(await getSetting(db, 'security.anonymousAccess')),
  };
}
