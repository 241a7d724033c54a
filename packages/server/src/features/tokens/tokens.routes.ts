import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type AccessToken,
  AUTH_MESSAGES,
  TOKEN_MESSAGES,
  TOKEN_MAX_EXPIRES_IN_SECONDS,
  TOKEN_SCOPE_GROUPS_PREFIX,
  TOKEN_SCOPE_USER,
  accessTokenSchema,
  apiKeyStateSchema,
  createTokenSchema,
  createdTokenSchema,
} from '@arca/contracts';
import { HttpError, badRequest, forbidden, notFound, unauthorized } from '../../core/errors.js';
import { verifyPassword } from '../../core/passwords.js';
import type { UserRow } from '../../db/schema.js';
import { recordWith } from '../../core/audit.js';
import { getUser } from '../users/index.js';
import { tokenPublicKey } from './tokens.jwt.js';
import { decryptPassword, encryptPassword, looksEncrypted } from '../identity/index.js';
import {
  apiKeyState,
  readApiKey,
  createAccessToken,
  refreshAccessToken,
  revokeAccessTokenBySecret,
  generateApiKey,
  listAccessTokens,
  revokeAccessToken,
  revokeApiKey,
  toAccessToken,
  tokenCreated,
} from './tokens.service.js';

function caller(request: FastifyRequest): UserRow {
  if (request.principal.kind !== 'user') throw unauthorized(AUTH_MESSAGES.loginRequired);
  return request.principal.user;
}
const isAdminCaller = (request: FastifyRequest) =>
  request.principal.kind === 'user' && request.principal.user.admin === 1;

/* A token change is audited and announced in its transaction; the token itself never reaches either. */
const tokenRevoked = (request: FastifyRequest) =>
  recordWith<AccessToken>(request, (_trx, revoked) => ({
    audit: { category: 'token', action: 'revoke access token', target: revoked.user, before: revoked },
    event: { type: 'token.revoked', payload: { id: revoked.id, user: revoked.user } },
  }));
const apiKeyChanged = (request: FastifyRequest, action: string, owner: string) =>
  recordWith<undefined>(request, () => ({ audit: { category: 'token', action, target: owner } }));

/** Form fields arrive as text: numbers and flags are read from either form (flags in any letter case, as Artifactory reads them). */
const flag = z.union([
  z.boolean(),
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['true', 'false']))
    .transform((v) => v === 'true'),
]);
const seconds = z.coerce.number().int().min(0).max(TOKEN_MAX_EXPIRES_IN_SECONDS);

/** `POST /access/api/v1/tokens`, as Artifactory takes it (JSON or form); unknown fields are ignored. */
const tokenRequestSchema = z.object({
  grant_type: z.enum(['client_credentials', 'refresh_token']).optional(),
  username: z.string().max(64).optional(),
  scope: z.string().optional(),
  expires_in: seconds.optional(),
  refreshable: flag.optional(),
  /** Artifactory's short reference token beside the JWT: read, but the JWT is what Arca answers. */
  include_reference_token: flag.optional(),
  description: z.string().max(1024).optional(),
  audience: z.string().optional(),
  refresh_token: z.string().optional(),
  access_token: z.string().optional(),
});

/** The access service's answer to a token call. */
const tokenAnswerSchema = z.object({
  token_id: z.string(),
  access_token: z.string().describe('A JWT signed with the Ed25519 key of /access/api/v1/cert/root'),
  refresh_token: z.string().optional(),
  expires_in: z.number().int().describe('Seconds; 0 when it does not expire'),
  scope: z.string(),
  token_type: z.literal('Bearer'),
});

const tokenListSchema = z.object({
  tokens: z.array(
    z.object({
      token_id: z.string(),
      subject: z.string(),
      description: z.string(),
      scope: z.string(),
      issued_at: z.number().int(),
      expiry: z.number().int().optional(),
      last_used: z.number().int().optional(),
    }),
  ),
});

/** The older call's answer, exactly the fields Artifactory documents for it. */
const legacyTokenAnswerSchema = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
  scope: z.string(),
  token_type: z.literal('Bearer'),
  refresh_token: z.string().optional(),
});

const legacyTokenRequestSchema = z.object({
  username: z.string().max(64).optional(),
  scope: z.string().optional(),
  expires_in: seconds.optional(),
  refreshable: flag.optional(),
});

const userQuery = z.object({ user: z.string().max(64).optional() });
const idParams = z.object({ id: z.string().uuid() });

/**
 * A user's own tokens and API key (the profile page); administrators may name any user. Listing
 * everyone's tokens needs administrator rights.
 */
export const tokensRoutes: FastifyPluginAsyncZod = async (app) => {
  const access = 'user' as const;

  /** The user a call is about: the caller, or (administrators only) the one named. */
  async function subject(request: FastifyRequest, name: string | undefined): Promise<UserRow> {
    const me = caller(request);
    if (!name || name === me.name) return me;
    if (!isAdminCaller(request)) throw forbidden(AUTH_MESSAGES.adminRequired);
    return getUser(app.db, name);
  }

  app.get(
    '/ui/tokens',
    {
      config: { access },
      schema: {
        querystring: userQuery.extend({ all: z.enum(['true', 'false']).optional() }),
        response: { 200: z.array(accessTokenSchema) },
      },
    },
    async (request) => {
      if (request.query.all === 'true') {
        if (!isAdminCaller(request)) throw forbidden(AUTH_MESSAGES.adminRequired);
        return listAccessTokens(app.db);
      }
      return listAccessTokens(app.db, (await subject(request, request.query.user)).id);
    },
  );

  app.post(
    '/ui/tokens',
    { config: { access }, schema: { body: createTokenSchema, response: { 200: createdTokenSchema } } },
    async (request) => {
      // administrators make tokens for others (a CI user's, say); everyone else for themselves
      const user = await subject(request, request.body.username);
      const { username: _, ...input } = request.body;
      const { row, token, refreshToken } = await createAccessToken(
        app.db,
        user,
        input,
        tokenCreated(request, user.name),
      );
      return { ...toAccessToken(row, user.name), token, ...(refreshToken ? { refreshToken } : {}) };
    },
  );

  app.delete('/ui/tokens/:id', { config: { access }, schema: { params: idParams } }, async (request, reply) => {
    const user = caller(request);
    await revokeAccessToken(
      app.db,
      request.params.id,
      isAdminCaller(request) ? undefined : user.id,
      tokenRevoked(request),
    );
    return reply.status(204).send();
  });

  app.get(
    '/ui/apiKey',
    { config: { access }, schema: { querystring: userQuery, response: { 200: apiKeyStateSchema } } },
    async (request) => apiKeyState(app.db, (await subject(request, request.query.user)).id),
  );

  app.post(
    '/ui/apiKey',
    { config: { access }, schema: { response: { 200: z.object({ apiKey: z.string() }) } } },
    async (request) => {
      const user = caller(request);
      const existed = (await apiKeyState(app.db, user.id)).exists;
      const apiKey = await generateApiKey(
        app.db,
        user.id,
        apiKeyChanged(request, existed ? 'regenerate API key' : 'create API key', user.name),
      );
      return { apiKey };
    },
  );

  app.delete('/ui/apiKey', { config: { access }, schema: { querystring: userQuery } }, async (request, reply) => {
    const user = await subject(request, request.query.user);
    if (!(await revokeApiKey(app.db, user.id, apiKeyChanged(request, 'revoke API key', user.name))))
      throw notFound(TOKEN_MESSAGES.noApiKey);
    return reply.status(204).send();
  });

  /** Re-authentication before the profile page shows secrets (spec part 2 §7.1); empty for OAuth users. */
  app.post(
    '/ui/userProfile',
    { config: { access }, schema: { body: z.object({ password: z.string().max(1024) }) } },
    async (request) => {
      const user = caller(request);
      if (user.realm === 'internal' && !(await verifyPassword(request.body.password, user.password_hash))) {
        throw badRequest(AUTH_MESSAGES.badCredentials);
      }
      return {
        user: {
          name: user.name,
          email: user.email ?? '',
          realm: user.realm,
          mfaEnrolled: user.mfa_enrolled_at !== null,
        },
        apiKey: await apiKeyState(app.db, user.id),
      };
    },
  );

  /** A short-lived token that identifies the user to an integration (spec part 2 §7.1). */
  app.post(
    '/ui/userIdentifyToken/:name',
    {
      config: { access },
      schema: {
        params: z.object({ name: z.string().max(64) }),
        body: z.object({
          expiresIn: z
            .number()
            .int()
            .min(60)
            .max(30 * 86_400)
            .default(3600),
        }),
        response: { 200: z.object({ token: z.string(), expiresIn: z.number() }) },
      },
    },
    async (request) => {
      const user = await subject(request, request.params.name);
      const { token } = await createAccessToken(
        app.db,
        user,
        { description: 'Identity token', expiresIn: request.body.expiresIn, scope: TOKEN_SCOPE_USER },
        tokenCreated(request, user.name, 'create identity token'),
      );
      return { token, expiresIn: request.body.expiresIn };
    },
  );

  /** The API key state of a user, asked with fresh basic credentials (spec part 2 §7.11). */
  app.get(
    '/ui/userApiKey',
    {
      config: { access },
      schema: {
        querystring: z.object({ username: z.string().max(64).optional() }),
        response: { 200: apiKeyStateSchema },
      },
    },
    async (request) => apiKeyState(app.db, (await subject(request, request.query.username)).id),
  );
};

/** Artifactory's API key calls and the access service's token calls, for automation. */
export const tokensRestRoutes: FastifyPluginAsyncZod = async (app) => {
  const access = 'user' as const;
  const apiKeyPath = '/artifactory/api/security/apiKey';

  app.get(apiKeyPath, { config: { access } }, async (request) => {
    // Artifactory's answer: the key, or an empty object when the caller has none
    const apiKey = await readApiKey(app.db, caller(request).id);
    return apiKey ? { apiKey } : {};
  });

  const create = async (request: FastifyRequest, regenerate: boolean) => {
    const user = caller(request);
    const existed = (await apiKeyState(app.db, user.id)).exists;
    if (existed && !regenerate) throw badRequest('This user already has an API key; use PUT to regenerate it.');
    const apiKey = await generateApiKey(
      app.db,
      user.id,
      apiKeyChanged(request, existed ? 'regenerate API key' : 'create API key', user.name),
    );
    return { apiKey };
  };
  app.post(apiKeyPath, { config: { access } }, (request) => create(request, false));
  app.put(apiKeyPath, { config: { access } }, (request) => create(request, true));

  app.delete(apiKeyPath, { config: { access } }, async (request) => {
    const user = caller(request);
    if (!(await revokeApiKey(app.db, user.id, apiKeyChanged(request, 'revoke API key', user.name))))
      throw notFound(TOKEN_MESSAGES.noApiKey);
    return { info: 'API key revoked successfully' };
  });

  app.delete(
    `${apiKeyPath}/:name`,
    { config: { access: 'admin' }, schema: { params: z.object({ name: z.string().max(64) }) } },
    async (request) => {
      const user = await getUser(app.db, request.params.name);
      if (!(await revokeApiKey(app.db, user.id, apiKeyChanged(request, 'revoke API key', user.name))))
        throw notFound(TOKEN_MESSAGES.noApiKey);
      return { info: 'API key revoked successfully' };
    },
  );

  // the caller's password, encrypted for files that must hold a credential (Maven's settings.xml);
  // asked with the password itself (basic), never with a token
  app.get(
    '/artifactory/api/security/encryptedPassword',
    {
      config: { access },
      schema: { summary: "The caller's password encrypted for settings files (asked with basic authentication); text" },
    },
    async (request, reply) => {
      const user = caller(request);
      const header = request.headers.authorization ?? '';
      if (request.principal.kind !== 'user' || request.principal.via !== 'password' || !/^basic /i.test(header))
        throw unauthorized('Ask for the encrypted password with your user name and password (basic authentication).');
      const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
      let password = decoded.slice(decoded.indexOf(':') + 1);
      if (looksEncrypted(password)) password = (await decryptPassword(app.db, user.id, password)) ?? password;
      return reply.type('text/plain').send(await encryptPassword(app.db, user.id, password));
    },
  );

  const tokensPath = '/access/api/v1/tokens';
  // the access service's calls take form-encoded bodies as well as JSON, as Artifactory's do
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  /** The answer of a token call, in the access service's shape. */
  const tokenAnswer = (created: {
    row: { id: string; scope: string; expires_at: number | null; created_at: number };
    token: string;
    refreshToken?: string;
  }) => ({
    token_id: created.row.id,
    access_token: created.token,
    ...(created.refreshToken ? { refresh_token: created.refreshToken } : {}),
    expires_in:
      created.row.expires_at === null ? 0 : Math.round((created.row.expires_at - created.row.created_at) / 1000),
    scope: created.row.scope,
    token_type: 'Bearer' as const,
  });

  /** The user a token is for: the caller, or (administrators only) the one named. */
  async function tokenOwner(request: FastifyRequest, username: string | undefined): Promise<UserRow> {
    const me = caller(request);
    if (!username || username === me.name) return me;
    if (!isAdminCaller(request)) throw forbidden(TOKEN_MESSAGES.otherUser);
    return getUser(app.db, username);
  }

  // the access service's token calls, also under /artifactory (clients given Artifactory's base URL call them there)
  for (const tokens of [tokensPath, `/artifactory${tokensPath}`]) {
    app.post(
      tokens,
      {
        config: { access: 'public' },
        schema: {
          summary: 'Create an access token (JSON or form), or refresh one with grant_type=refresh_token',
          body: tokenRequestSchema,
          response: { 200: tokenAnswerSchema },
        },
      },
      async (request) => {
        const body = request.body;
        if (body.grant_type === 'refresh_token') {
          if (!body.refresh_token) throw badRequest('refresh_token is required with grant_type=refresh_token.');
          const refreshed = await refreshAccessToken(app.db, body.refresh_token, body.access_token, (owner) =>
            tokenCreated(request, owner.name, 'refresh access token'),
          );
          return tokenAnswer(refreshed);
        }
        const owner = await tokenOwner(request, body.username);
        const created = await createAccessToken(
          app.db,
          owner,
          {
            description: body.description || 'REST API',
            expiresIn: body.expires_in ?? 0,
            scope: body.scope ?? TOKEN_SCOPE_USER,
            refreshable: body.refreshable ?? false,
          },
          tokenCreated(request, owner.name),
        );
        return tokenAnswer(created);
      },
    );

    // revoking by the token itself (what a script holds), for its owner or an administrator
    app.post(
      `${tokens}/revoke`,
      {
        config: { access },
        schema: { summary: 'Revoke a token by its value; answers text', body: z.object({ token: z.string().min(1) }) },
      },
      async (request, reply) => {
        await revokeAccessTokenBySecret(
          app.db,
          request.body.token,
          isAdminCaller(request) ? undefined : caller(request).id,
          tokenRevoked(request),
        );
        return reply.type('text/plain').send(TOKEN_MESSAGES.revoked);
      },
    );

    // Artifactory's "revoke token by value": the token (JWT or reference) in the body
    app.delete(
      `${tokens}/revoke`,
      {
        config: { access },
        schema: {
          summary: 'Revoke a token by its value (JSON or form body)',
          body: z.object({ token: z.string().min(1) }),
          response: { 200: z.object({ 'revoked-token-id': z.string() }) },
        },
      },
      async (request) => {
        const revoked = await revokeAccessTokenBySecret(
          app.db,
          request.body.token,
          isAdminCaller(request) ? undefined : caller(request).id,
          tokenRevoked(request),
        );
        return { 'revoked-token-id': revoked.id };
      },
    );

    app.get(
      tokens,
      {
        config: { access },
        schema: { summary: "The caller's tokens (administrators: everyone's)", response: { 200: tokenListSchema } },
      },
      async (request) => {
        const tokens = await listAccessTokens(app.db, isAdminCaller(request) ? undefined : caller(request).id);
        return {
          tokens: tokens.map((t) => ({
            token_id: t.id,
            subject: t.user,
            description: t.description,
            scope: t.scope,
            issued_at: Math.floor(Date.parse(t.createdAt) / 1000),
            ...(t.expiresAt ? { expiry: Math.floor(Date.parse(t.expiresAt) / 1000) } : {}),
            ...(t.lastUsedAt ? { last_used: Math.floor(Date.parse(t.lastUsedAt) / 1000) } : {}),
          })),
        };
      },
    );

    app.delete(
      `${tokens}/:id`,
      { config: { access }, schema: { summary: 'Revoke a token by its id', params: idParams } },
      async (request, reply) => {
        await revokeAccessToken(
          app.db,
          request.params.id,
          isAdminCaller(request) ? undefined : caller(request).id,
          tokenRevoked(request),
        );
        return reply.status(200).send();
      },
    );
  }

  // the public key that verifies the tokens offline (PEM)
  app.get(
    '/access/api/v1/cert/root',
    { config: { access: 'public' }, schema: { summary: 'The public key (PEM) that verifies access tokens offline' } },
    async (_request, reply) => reply.type('application/x-pem-file').send(await tokenPublicKey(app.db)),
  );

  // Artifactory's older token call, still used by CI plug-ins: form fields username, scope
  // (`member-of-groups:a,b` or `api:*`), expires_in, refreshable
  const legacy = '/artifactory/api/security/token';
  app.post(
    legacy,
    {
      config: { access },
      schema: {
        summary: "Artifactory's older token call (form: username, scope, expires_in, refreshable)",
        body: legacyTokenRequestSchema,
        response: { 200: legacyTokenAnswerSchema },
      },
    },
    async (request) => {
      const body = request.body;
      const owner = await tokenOwner(request, body.username);
      const groups = /(?:^|\s)member-of-groups:([^\s]+)/.exec(body.scope ?? '')?.[1];
      const scope = !groups || groups === '*' ? TOKEN_SCOPE_USER : `${TOKEN_SCOPE_GROUPS_PREFIX}${groups}`;
      const created = await createAccessToken(
        app.db,
        owner,
        {
          description: 'REST API (api/security/token)',
          expiresIn: body.expires_in ?? 3600,
          scope,
          refreshable: body.refreshable ?? false,
        },
        tokenCreated(request, owner.name),
      );
      const { access_token, expires_in, refresh_token } = tokenAnswer(created);
      return {
        access_token,
        expires_in,
        // the scope in the older call's own words
        scope: `api:* member-of-groups:${groups || '*'}`,
        token_type: 'Bearer' as const,
        ...(refresh_token ? { refresh_token } : {}),
      };
    },
  );
  app.post(
    `${legacy}/revoke`,
    {
      config: { access },
      schema: {
        summary: 'Revoke a token by its value or id (the older call)',
        body: z.object({ token: z.string().optional(), token_id: z.string().optional() }),
        response: { 200: z.object({}) },
      },
    },
    async (request) => {
      const owner = isAdminCaller(request) ? undefined : caller(request).id;
      // as Artifactory: 200 also for a token revoked already or never known
      const tolerant = (error: unknown) => {
        if (!(error instanceof HttpError && error.statusCode === 404)) throw error;
      };
      if (request.body.token)
        await revokeAccessTokenBySecret(app.db, request.body.token, owner, tokenRevoked(request)).catch(tolerant);
      else if (request.body.token_id)
        await revokeAccessToken(app.db, request.body.token_id, owner, tokenRevoked(request)).catch(tolerant);
      else throw badRequest('token or token_id is required.');
      return {};
    },
  );
};
