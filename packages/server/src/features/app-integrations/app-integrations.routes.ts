import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  APP_INTEGRATION_TYPES,
  OAUTH_DEFAULT_SCOPE,
  appClientSchema,
  appIntegrationBodySchema,
  appIntegrationCreatedSchema,
  appIntegrationSchema,
  userAuthorizationSchema,
} from '@arca/contracts';
import { baseUrlOf } from '../../core/base-url.js';
import { forbidden } from '../../core/errors.js';
import {
  OAuthError,
  appClient,
  authenticateClient,
  authorizeApplication,
  createAppIntegration,
  deleteAppIntegration,
  exchangeCode,
  listAppIntegrations,
  oauthErrorHandler,
  revokeAuthorization,
  userAuthorizations,
  validateRedirect,
} from './app-integrations.service.js';

const admin = { access: 'admin' as const };
const user = { access: 'user' as const };

/** The console's application integrations (`access/integration`, spec part 2 §7.12). */
export const appIntegrationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/access/integration';
  app.get(base, { config: admin, schema: { response: { 200: z.array(appIntegrationSchema) } } }, () =>
    listAppIntegrations(app.db),
  );
  app.post(
    base,
    { config: admin, schema: { body: appIntegrationBodySchema, response: { 201: appIntegrationCreatedSchema } } },
    async (request, reply) => reply.status(201).send(await createAppIntegration(request, request.body)),
  );
  app.get(`${base}/applications`, { config: admin }, () => APP_INTEGRATION_TYPES);
  app.delete(
    `${base}/:id`,
    { config: admin, schema: { params: z.object({ id: z.string().max(64) }) } },
    async (request, reply) => {
      await deleteAppIntegration(request, request.params.id);
      return reply.status(204).send();
    },
  );
  // the consent page's calls: any signed-in user
  app.get(
    `${base}/validate/:id`,
    {
      config: user,
      schema: {
        params: z.object({ id: z.string().max(64) }),
        querystring: z.object({ auth_url: z.string().max(4096) }),
      },
    },
    (request) => validateRedirect(app.db, request.params.id, request.query.auth_url),
  );
  app.get(
    `${base}/client/:id`,
    { config: user, schema: { params: z.object({ id: z.string().max(64) }), response: { 200: appClientSchema } } },
    (request) => appClient(app.db, request.params.id),
  );
  app.post(
    `${base}/authorize/:clientId/:username`,
    {
      config: user,
      schema: {
        params: z.object({ clientId: z.string().max(64), username: z.string().max(256) }),
        body: z.object({ url: z.string().min(1).max(8192) }),
      },
    },
    (request) => authorizeApplication(request, request.params.clientId, request.params.username, request.body.url),
  );
  app.get(
    `${base}/authorization/:username`,
    {
      config: user,
      schema: {
        params: z.object({ username: z.string().max(256) }),
        querystring: z.object({ internal: z.string().optional() }),
        response: { 200: z.array(userAuthorizationSchema) },
      },
    },
    (request) => {
      const { principal } = request;
      if (principal.kind !== 'user') throw forbidden('Sign in first.');
      if (principal.user.name !== request.params.username && principal.user.admin !== 1) throw forbidden('Not yours.');
      return userAuthorizations(app.db, request.params.username);
    },
  );
  app.delete(
    `${base}/authorization/:clientId/:username`,
    { config: user, schema: { params: z.object({ clientId: z.string().max(64), username: z.string().max(256) }) } },
    async (request, reply) => {
      await revokeAuthorization(request, request.params.clientId, request.params.username);
      return reply.status(204).send();
    },
  );
};

/** Where applications find and use the authorisation server: RFC 8414 metadata and the token endpoint (RFC 6749). */
export const oauthServerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.get('/.well-known/oauth-authorization-server', { config: { access: 'public' } }, (request) => {
    const issuer = baseUrlOf(request).replace(/\/+$/, '');
    return {
      issuer,
      authorization_endpoint: `${issuer}/ui/oauth/authorize`,
      token_endpoint: `${issuer}/access/api/v1/oauth2/token`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      scopes_supported: [OAUTH_DEFAULT_SCOPE],
    };
  });

  app.post(
    '/access/api/v1/oauth2/token',
    {
      // the client authenticates itself (its id and secret, often as HTTP Basic): no user credential is read
      config: { access: 'public', ownCredential: () => true },
      errorHandler: oauthErrorHandler,
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, string | undefined>;
      const client = await authenticateClient(app.db, request.headers.authorization, body);
      if (body.grant_type !== 'authorization_code') {
        throw new OAuthError('unsupported_grant_type', 'Only the authorization_code grant is supported.');
      }
      const answer = await exchangeCode(request, client, body);
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(answer);
    },
  );
};
