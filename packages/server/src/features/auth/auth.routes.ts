import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUTH_MESSAGES,
  DEFAULT_SERVER_NAME,
  LICENSE_EDITION_LABELS,
  footerSchema,
  globalStateSchema,
  loginBodySchema,
  loginAnswerSchema,
  loginQuerySchema,
  loginRelatedDataSchema,
  userDataSchema,
  GENERAL_DEFAULTS,
} from '@arca/contracts';
import { BUILD } from '../../core/build-info.js';
import { CONSOLE_API_PREFIX } from '../../core/console.plugin.js';
import { audit, auditActor, recordAudit } from '../../core/audit.js';
import { getSetting, serverNameOf } from '../../core/settings.store.js';
import { SESSION_COOKIE, buildUserData, login, logout } from './auth.service.js';
import { cookieOptions, finishSignIn } from './sign-in.js';
import { clientRefusals, clientThrottled } from './auth.plugin.js';
import { HttpError } from '../../core/errors.js';
import { linkBaseUrl, mailConfigured } from '../mail/index.js';

/** Session, login and the start-up data of the console (spec part 2 §7.1). */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const cookies = cookieOptions(app.config);

  app.get(
    '/ui/auth/current',
    { config: { access: 'public' }, schema: { response: { 200: userDataSchema } } },
    (request) => buildUserData(app.db, request.principal),
  );

  app.post(
    '/ui/auth/login',
    {
      config: { access: 'public' },
      schema: { body: loginBodySchema, querystring: loginQuerySchema, response: { 200: loginAnswerSchema } },
    },
    async (request, reply) => {
      const remember = request.query._spring_security_remember_me === 'true';
      const { body } = request;
      try {
        const outcome = await login(app.db, app.config, body.user, body.password, remember);
        return await finishSignIn(app, request, reply, outcome, 'sign-in');
      } catch (error) {
        // the console's sign-in counts on the client's refusals as REST credentials do
        const refused = error instanceof HttpError && error.statusCode === 401;
        const throttled = refused && (await clientThrottled(app, request.ip));
        if (refused) await clientRefusals(app).count(request.ip);
        app.accessLog.warn({ user: body.user, ip: request.ip, reason: (error as Error).message }, 'login failed');
        await recordAudit(app.db, auditActor(request, body.user), {
          category: 'auth',
          action: 'sign-in',
          target: body.user,
          outcome: 'failure',
          message: (error as Error).message,
        });
        if (throttled) {
          reply.header('Retry-After', String(clientRefusals(app).retryAfter(request.ip)));
          throw new HttpError(429, AUTH_MESSAGES.tooManyFailures);
        }
        throw error;
      }
    },
  );

  app.get('/auth/logout', { config: { access: 'public' } }, async (request, reply) => {
    await logout(app.db, request.principal);
    if (request.principal.kind === 'user') {
      app.accessLog.info({ user: request.principal.user.name }, 'logout');
      await audit(request, { category: 'auth', action: 'sign-out', target: request.principal.user.name });
    }
    reply.clearCookie(SESSION_COOKIE, cookies);
    return reply.status(204).send();
  });

  app.post(
    '/ui/auth/loginRelatedData',
    {
      config: { access: 'public' },
      schema: { body: z.unknown().optional(), response: { 200: loginRelatedDataSchema } },
    },
    async () => {
      // one identity provider may be the way in: the login page sends everyone there
      const { autoRedirectProvider } = await getSetting(app.db, 'sso');
      const chosen = (p: { name: string; enabled: boolean }) => p.name === autoRedirectProvider && p.enabled;
      const oidc = autoRedirectProvider ? (await getSetting(app.db, 'oidc.providers')).find(chosen) : undefined;
      const saml = autoRedirectProvider ? (await getSetting(app.db, 'saml.providers')).find(chosen) : undefined;
      const provider = oidc ?? saml;
      return {
        forgotPassword: (await mailConfigured(app.db)) && (await linkBaseUrl(app.db, app.config.baseUrl)) !== undefined,
        canRememberMe: app.config.session.canRememberMe,
        ...(provider
          ? {
              ssoProviderLink: `${CONSOLE_API_PREFIX}/auth/${oidc ? 'oauth2' : 'saml'}/login/${encodeURIComponent(provider.name)}`,
            }
          : {}),
      };
    },
  );

  app.get(
    '/ui/auth/screen/footer',
    { config: { access: 'public' }, schema: { response: { 200: footerSchema } } },
    async (request) => {
      const license = await app.license.current();
      const user = request.principal.kind === 'user' ? request.principal.user : undefined;
      const general = await getSetting(app.db, 'general');
      const logo = await getSetting(app.db, 'general.logo');
      return {
        buildNumber: `${BUILD.version} rev ${BUILD.revision}`,
        version: BUILD.version,
        license: license.edition,
        licenseLabel: LICENSE_EDITION_LABELS[license.edition],
        licensedTo: license.licensee,
        userEmail: user?.email ?? null,
        logoUrl: general.logoUrl || null,
        userLogo: logo ? `${CONSOLE_API_PREFIX}/ui/generalConfig/logo?v=${logo.sha256.slice(0, 12)}` : null,
        serverName: await serverNameOf(app.db, app.config.serverName, DEFAULT_SERVER_NAME),
      };
    },
  );

  app.get(
    '/ui/auth/screen/globalState',
    { config: { access: 'public' }, schema: { response: { 200: globalStateSchema } } },
    async () => {
      const license = await app.license.current();
      const general = await getSetting(app.db, 'general');
      return {
        serverName: await serverNameOf(app.db, app.config.serverName, DEFAULT_SERVER_NAME),
        dateFormat: general.dateFormat ?? '',
        fileUploadMaxSizeMb: general.fileUploadMaxSizeMb ?? GENERAL_DEFAULTS.fileUploadMaxSizeMb,
        anonAccessEnabled: await getSetting(app.db, 'security.anonymousAccess'),
        licenseEdition: license.edition,
        licenseRank: license.rank,
        cloud: false,
        dedicatedCloud: false,
        lightweight: false,
      };
    },
  );
};
