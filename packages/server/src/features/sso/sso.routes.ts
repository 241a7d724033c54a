import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SAML_MESSAGES,
  OIDC_MESSAGES,
  formatMessage,
  loginProviderSchema,
  oidcProviderBodySchema,
  oidcProviderSchema,
  httpSsoSettingsSchema,
  samlProviderBodySchema,
  samlProviderSchema,
  ssoSettingsSchema,
} from '@arca/contracts';
import { audit, auditActor, recordAudit } from '../../core/audit.js';
import { baseUrlOf, configuredBaseUrl } from '../../core/base-url.js';
import { CONSOLE_API_PREFIX } from '../../core/console.plugin.js';
import { HttpError, badRequest } from '../../core/errors.js';
import { getSetting, putSetting } from '../../core/settings.store.js';
import type { UserRow } from '../../db/schema.js';
import { SESSION_COOKIE, cookieOptions, openSession } from '../auth/index.js';
import {
  deleteOidcProvider,
  finishOidcSignIn,
  listOidcProviders,
  redirectUriOf,
  saveOidcProvider,
  safeRedirect,
  startOidcSignIn,
} from './sso.oidc.js';
import { checkProxies, httpSsoSettings, httpSsoUser } from './sso.http.js';
import {
  deleteSamlProvider,
  finishSamlSignIn,
  listSamlProviders,
  samlLogoutUrl,
  saveSamlProvider,
  serviceProviderMetadata,
  startSamlSignIn,
} from './sso.saml.js';

/** The cookie that ties a provider's answer to the browser that asked (the state, for ten minutes). */
const STATE_COOKIE = 'arca_sso_state';
const nameParams = z.object({ name: z.string().max(64) });

/** Back to the login page with what went wrong. */
const toLogin = (reply: FastifyReply, message: string) =>
  reply.redirect(`/ui/login?ssoError=${encodeURIComponent(message)}`, 302);

/**
 * Single sign-on: the providers the login page offers, the redirect to a provider and its answer
 * (a console session), and the administrators' provider settings.
 */

/**
 * The address SAML is spoken at: the configured one only. The entity id, the audience and the
 * assertion consumer service follow from it, so one taken from the request's Host would accept
 * an assertion made for another deployment.
 */
function samlBaseUrl(request: FastifyRequest): string {
  const configured = configuredBaseUrl(request);
  if (!configured) throw new HttpError(400, SAML_MESSAGES.baseUrlRequired);
  return configured;
}

export const ssoRoutes: FastifyPluginAsyncZod = async (app) => {
  const cookies = cookieOptions(app.config);
  const stateCookie = { ...cookies, path: `${CONSOLE_API_PREFIX}/auth/oauth2/`, maxAge: 600 };

  app.get(
    '/ui/oauth2/loginRequestPlatform',
    { config: { access: 'public' }, schema: { response: { 200: z.array(loginProviderSchema) } } },
    async (request) => [
      ...(await listOidcProviders(app.db, baseUrlOf(request)))
        .filter((p) => p.enabled)
        .map((p) => ({
          name: p.name,
          displayName: p.displayName,
          type: 'oidc' as const,
          url: `${CONSOLE_API_PREFIX}/auth/oauth2/login/${encodeURIComponent(p.name)}`,
        })),
      ...((await httpSsoSettings(app.db)).enabled
        ? [
            {
              name: 'http-sso',
              displayName: 'your company sign-in',
              type: 'http' as const,
              url: `${CONSOLE_API_PREFIX}/auth/http-sso-login`,
            },
          ]
        : []),
      ...(await listSamlProviders(app.db, baseUrlOf(request)))
        .filter((p) => p.enabled)
        .map((p) => ({
          name: p.name,
          displayName: p.displayName,
          type: 'saml' as const,
          url: `${CONSOLE_API_PREFIX}/auth/saml/login/${encodeURIComponent(p.name)}`,
        })),
    ],
  );

  app.get(
    '/auth/oauth2/login/:name',
    {
      config: { access: 'public' },
      schema: { params: nameParams, querystring: z.object({ redirect: z.string().max(2048).optional() }) },
    },
    async (request, reply) => {
      try {
        const { url, state } = await startOidcSignIn(
          app.db,
          request.params.name,
          baseUrlOf(request),
          request.query.redirect,
        );
        reply.setCookie(STATE_COOKIE, state, stateCookie);
        return reply.redirect(url, 302);
      } catch (error) {
        return toLogin(reply, (error as Error).message);
      }
    },
  );

  app.get(
    '/auth/oauth2/callback/:name',
    { config: { access: 'public' }, schema: { params: nameParams } },
    async (request, reply) => {
      const { name } = request.params;
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const callback = new URL(`${redirectUriOf(baseUrlOf(request), name)}${query}`);
      reply.clearCookie(STATE_COOKIE, stateCookie);
      return signedIn(request, reply, name, () =>
        finishOidcSignIn(app.db, name, callback, request.cookies[STATE_COOKIE]),
      );
    },
  );

  /**
   * Ends a provider's answer: a console session and the way on, or the login page with what went
   * wrong; either is in the audit trail with the provider's name.
   */
  async function signedIn(
    request: FastifyRequest,
    reply: FastifyReply,
    name: string,
    finish: () => Promise<{ user: UserRow; redirect: string }>,
  ) {
    try {
      const { user, redirect } = await finish();
      const session = await openSession(app.db, app.config, user, false);
      await recordAudit(app.db, auditActor(request, user.name), {
        category: 'auth',
        action: 'sign-in',
        target: user.name,
        message: `Signed in through the identity provider '${name}'.`,
      });
      reply.setCookie(SESSION_COOKIE, session.token, {
        ...cookies,
        ...(session.maxAgeMs ? { maxAge: Math.floor(session.maxAgeMs / 1000) } : {}),
      });
      return reply.redirect(redirect, 302);
    } catch (error) {
      const message = (error as Error).message;
      app.accessLog.warn({ provider: name, ip: request.ip, reason: message }, 'single sign-on failed');
      await recordAudit(app.db, auditActor(request, 'anonymous'), {
        category: 'auth',
        action: 'sign-in',
        target: `identity provider ${name}`,
        outcome: 'failure',
        message,
      });
      return toLogin(reply, message);
    }
  }

  // SAML: the response is posted as a form (HTTP-POST binding)
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1_048_576 },
    (_r, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.get(
    '/auth/saml/login/:name',
    {
      config: { access: 'public' },
      schema: { params: nameParams, querystring: z.object({ redirect: z.string().max(2048).optional() }) },
    },
    async (request, reply) => {
      try {
        return reply.redirect(
          await startSamlSignIn(app.db, request.params.name, samlBaseUrl(request), request.query.redirect),
          302,
        );
      } catch (error) {
        return toLogin(reply, (error as Error).message);
      }
    },
  );
  app.post(
    '/auth/saml/acs/:name',
    {
      // posted across sites by the identity provider: the signed response is the credential
      config: { access: 'public', ownCredential: () => true },
      schema: { params: nameParams, body: z.record(z.string(), z.string()) },
    },
    (request, reply) =>
      signedIn(request, reply, request.params.name, () =>
        finishSamlSignIn(app.db, request.params.name, samlBaseUrl(request), request.body),
      ),
  );
  app.get(
    '/auth/saml/metadata/:name',
    { config: { access: 'public' }, schema: { params: nameParams } },
    async (request, reply) =>
      reply
        .type('application/samlmetadata+xml')
        .send(await serviceProviderMetadata(app.db, request.params.name, samlBaseUrl(request))),
  );
  /** Where a SAML user's browser goes after signing out (spec part 2 §7.1): the provider's logout service. */
  app.get(
    '/ui/auth/samlLogoutUrl',
    { config: { access: 'public' }, schema: { response: { 200: z.object({ logoutUrl: z.string() }) } } },
    async (request) => ({
      logoutUrl: await samlLogoutUrl(app.db, request.principal.kind === 'user' ? request.principal.user : undefined),
    }),
  );

  /** HTTP single sign-on: the user a trusted reverse proxy names gets a console session. */
  app.get(
    '/auth/http-sso-login',
    { config: { access: 'public' }, schema: { querystring: z.object({ redirect: z.string().max(2048).optional() }) } },
    (request, reply) =>
      signedIn(request, reply, 'http-sso', async () => ({
        user: await httpSsoUser(request),
        redirect: safeRedirect(request.query.redirect),
      })),
  );

  const admin = { access: 'admin' as const };
  app.get('/ui/auth/httpSso', { config: admin, schema: { response: { 200: httpSsoSettingsSchema } } }, () =>
    httpSsoSettings(app.db),
  );
  app.put(
    '/ui/auth/httpSso',
    { config: admin, schema: { body: httpSsoSettingsSchema, response: { 200: httpSsoSettingsSchema } } },
    async (request) => {
      checkProxies(request.body);
      const before = await httpSsoSettings(app.db);
      await app.db.transaction().execute(async (trx) => {
        await putSetting(trx, 'httpSso', request.body);
        await audit(
          request,
          { category: 'security', action: 'update', target: 'http single sign-on', before, after: request.body },
          trx,
        );
      });
      return request.body;
    },
  );
  app.get(
    '/ui/saml/providers',
    { config: admin, schema: { response: { 200: z.array(samlProviderSchema) } } },
    (request) => listSamlProviders(app.db, baseUrlOf(request)),
  );
  app.post(
    '/ui/saml/providers',
    { config: admin, schema: { body: samlProviderBodySchema, response: { 201: samlProviderSchema } } },
    async (request, reply) => reply.status(201).send(await saveSamlProvider(request, request.body, baseUrlOf(request))),
  );
  app.put(
    '/ui/saml/providers/:name',
    {
      config: admin,
      schema: { params: nameParams, body: samlProviderBodySchema, response: { 200: samlProviderSchema } },
    },
    (request) => saveSamlProvider(request, request.body, baseUrlOf(request), request.params.name),
  );
  app.delete('/ui/saml/providers/:name', { config: admin, schema: { params: nameParams } }, async (request, reply) => {
    await deleteSamlProvider(request, request.params.name);
    return reply.status(204).send();
  });
  app.get(
    '/ui/oauth2/providers',
    { config: admin, schema: { response: { 200: z.array(oidcProviderSchema) } } },
    (request) => listOidcProviders(app.db, baseUrlOf(request)),
  );
  app.post(
    '/ui/oauth2/providers',
    { config: admin, schema: { body: oidcProviderBodySchema, response: { 201: oidcProviderSchema } } },
    async (request, reply) => reply.status(201).send(await saveOidcProvider(request, request.body, baseUrlOf(request))),
  );
  app.put(
    '/ui/oauth2/providers/:name',
    {
      config: admin,
      schema: { params: nameParams, body: oidcProviderBodySchema, response: { 200: oidcProviderSchema } },
    },
    (request) => saveOidcProvider(request, request.body, baseUrlOf(request), request.params.name),
  );
  app.delete(
    '/ui/oauth2/providers/:name',
    { config: admin, schema: { params: nameParams } },
    async (request, reply) => {
      await deleteOidcProvider(request, request.params.name);
      return reply.status(204).send();
    },
  );
  app.get('/ui/oauth2/settings', { config: admin, schema: { response: { 200: ssoSettingsSchema } } }, () =>
    getSetting(app.db, 'sso'),
  );
  app.put(
    '/ui/oauth2/settings',
    { config: admin, schema: { body: ssoSettingsSchema, response: { 200: ssoSettingsSchema } } },
    async (request: FastifyRequest<{ Body: z.infer<typeof ssoSettingsSchema> }>) => {
      const chosen = request.body.autoRedirectProvider;
      const providers = [
        ...(await listOidcProviders(app.db, baseUrlOf(request))),
        ...(await listSamlProviders(app.db, baseUrlOf(request))),
      ];
      if (chosen && !providers.some((p) => p.name === chosen && p.enabled)) {
        throw badRequest(formatMessage(OIDC_MESSAGES.notFound, { name: chosen }), 'autoRedirectProvider');
      }
      const before = await getSetting(app.db, 'sso');
      await app.db.transaction().execute(async (trx) => {
        await putSetting(trx, 'sso', { autoRedirectProvider: chosen });
        await audit(
          request,
          { category: 'security', action: 'update', target: 'single sign-on', before, after: request.body },
          trx,
        );
      });
      return { autoRedirectProvider: chosen };
    },
  );
};
