import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LDAP_REALM, type LoginAnswer } from '@arca/contracts';
import type { Config } from '../../config.js';
import { auditActor, recordAudit } from '../../core/audit.js';
import { SESSION_COOKIE, buildUserData, type LoginOutcome } from './auth.service.js';
import { TOKEN_LIFETIME_MS, issueToken } from '../identity/index.js';

/** Holds the one-time token of a sign-in waiting for its second factor. */
export const MFA_COOKIE = 'arca_mfa';

export function cookieOptions(config: Config) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: config.session.secureCookie };
}

/**
 * Ends a successful sign-in step: a session cookie and the user data, or (when a second factor
 * is due) a short-lived pending-sign-in cookie and the challenge the console acts on.
 */
export async function finishSignIn(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: LoginOutcome,
  action: string,
): Promise<LoginAnswer> {
  const cookies = cookieOptions(app.config);
  if (outcome.kind === 'mfa') {
    const token = await issueToken(app.db, outcome.user.id, 'mfa-login', { rememberMe: outcome.rememberMe });
    reply.setCookie(MFA_COOKIE, token, { ...cookies, maxAge: TOKEN_LIFETIME_MS['mfa-login'] / 1000 });
    return { mfaStatus: outcome.status, authenticator: 'totp', userName: outcome.user.name };
  }
  app.accessLog.info({ user: outcome.user.name, ip: request.ip }, 'login succeeded');
  await recordAudit(app.db, auditActor(request, outcome.user.name), {
    category: 'auth',
    action,
    target: outcome.user.name,
    ...(outcome.user.realm === LDAP_REALM
      ? { message: `Signed in through the directory '${outcome.user.external_source}'.` }
      : {}),
  });
  const maxAge = outcome.maxAgeMs === undefined ? undefined : Math.floor(outcome.maxAgeMs / 1000);
  reply.setCookie(SESSION_COOKIE, outcome.token, { ...cookies, ...(maxAge ? { maxAge } : {}) });
  reply.clearCookie(MFA_COOKIE, cookies);
  return buildUserData(app.db, { kind: 'user', user: outcome.user, sessionId: null });
}
