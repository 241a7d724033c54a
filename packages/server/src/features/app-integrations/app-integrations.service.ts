import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  APP_INTEGRATION_MESSAGES,
  OAUTH_CODE_SECONDS,
  OAUTH_DEFAULT_SCOPE,
  TERRAFORM_CLIENT_ID,
  appIntegrationBodySchema,
  type AppIntegration,
  type AppIntegrationBody,
  type AppIntegrationCreated,
  type UserAuthorization,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { OauthClientsTable } from '../../db/schema.js';
import { auditActor } from '../../core/audit.js';
import { recordChange } from '../../core/changes.js';
import { HttpError, badRequest, conflict, forbidden, notFound } from '../../core/errors.js';
import { findUserById, findUserByName } from '../identity/index.js';
import { getSecuritySettings } from '../security/index.js';
import { createAccessToken, revokeTokensById, tokenCreated } from '../tokens/index.js';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const iso = (ms: number) => new Date(Number(ms)).toISOString();

/** An OAuth error as RFC 6749 §5.2 writes it. */
export class OAuthError extends HttpError {
  constructor(
    readonly error: 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' | 'invalid_scope',
    description: string,
    status = error === 'invalid_client' ? 401 : 400,
  ) {
    super(status, description);
  }
}

/**
 * A token endpoint's error answer (RFC 6749 §5.2): `{ error, error_description }`, never the
 * console's shape, and not to be cached; a client that failed to authenticate is challenged.
 */
export function oauthErrorHandler(error: Error, _request: FastifyRequest, reply: FastifyReply) {
  const oauth = error instanceof OAuthError ? error : new OAuthError('invalid_request', error.message);
  if (oauth.statusCode === 401) reply.header('WWW-Authenticate', 'Basic realm="Arca"');
  return reply
    .status(oauth.statusCode)
    .header('cache-control', 'no-store')
    .send({ error: oauth.error, error_description: oauth.message });
}

function answerOf(row: OauthClientsTable, users: number): AppIntegration {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    description: row.description,
    callbackUrl: row.callback_url,
    platformBaseUrl: row.platform_base_url,
    clientId: row.client_id,
    created: iso(row.created_at),
    createdBy: row.created_by,
    users,
  };
}

export async function listAppIntegrations(db: Db): Promise<AppIntegration[]> {
  const [rows, grants] = await Promise.all([
    // Terraform's built-in client is no registered application
    db.selectFrom('oauth_clients').selectAll().where('client_id', '!=', TERRAFORM_CLIENT_ID).orderBy('name').execute(),
    db
      .selectFrom('oauth_grants')
      .select('client_id')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .groupBy('client_id')
      .execute(),
  ]);
  return rows.map((row) => answerOf(row, Number(grants.find((g) => g.client_id === row.client_id)?.n ?? 0)));
}

/** Registers an application: its client id, and a secret answered this once (only its hash is kept). */
export async function createAppIntegration(
  request: FastifyRequest,
  body: AppIntegrationBody,
): Promise<AppIntegrationCreated> {
  const parsed = appIntegrationBodySchema.parse(body);
  const db = request.server.db;
  const taken = await db.selectFrom('oauth_clients').select('id').where('name', '=', parsed.name).executeTakeFirst();
  if (taken) throw conflict(APP_INTEGRATION_MESSAGES.nameTaken, 'name');
  const secret = randomBytes(32).toString('base64url');
  const row: OauthClientsTable = {
    id: randomUUID(),
    client_id: `arca-${randomBytes(12).toString('hex')}`,
    secret_hash: sha256(secret),
    name: parsed.name,
    type: parsed.type,
    description: parsed.description,
    callback_url: parsed.callbackUrl,
    platform_base_url: parsed.platformBaseUrl,
    created_at: Date.now(),
    created_by: auditActor(request).actor,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('oauth_clients').values(row).execute();
    await recordChange(trx, auditActor(request), {
      audit: {
        category: 'security',
        action: 'create application integration',
        target: row.name,
        after: { client_id: row.client_id, type: row.type, callback_url: row.callback_url },
      },
    });
  });
  return { ...answerOf(row, 0), secret };
}

async function clientRow(db: Db, where: { id?: string; clientId?: string }): Promise<OauthClientsTable> {
  let query = db.selectFrom('oauth_clients').selectAll();
  if (where.id) query = query.where('id', '=', where.id);
  if (where.clientId) query = query.where('client_id', '=', where.clientId);
  const row = await query.executeTakeFirst();
  if (!row) throw notFound(APP_INTEGRATION_MESSAGES.notFound);
  return row;
}

/** Deletes an application with its grants and codes, revoking every token issued to it. */
export async function deleteAppIntegration(request: FastifyRequest, id: string): Promise<void> {
  const db = request.server.db;
  const row = await clientRow(db, { id });
  await db.transaction().execute(async (trx) => {
    const tokens = await trx
      .selectFrom('oauth_client_tokens')
      .select('token_id')
      .where('client_id', '=', row.client_id)
      .execute();
    await revokeTokensById(
      trx,
      tokens.map((t) => t.token_id),
    );
    await trx.deleteFrom('oauth_clients').where('id', '=', id).execute();
    await recordChange(trx, auditActor(request), {
      audit: {
        category: 'security',
        action: 'delete application integration',
        target: row.name,
        before: { client_id: row.client_id, tokens: tokens.length },
      },
    });
  });
}

export async function appClient(db: Db, clientId: string) {
  const row = await clientRow(db, { clientId });
  return {
    clientId: row.client_id,
    name: row.name,
    type: row.type,
    description: row.description,
    callbackUrl: row.callback_url,
  };
}

/** Whether an application may send users back to `redirectUri`: only to its registered callback URL. */
export async function validateRedirect(db: Db, clientId: string, redirectUri: string): Promise<{ valid: true }> {
  const row = await clientRow(db, { clientId });
  if (redirectUri !== row.callback_url) throw badRequest(APP_INTEGRATION_MESSAGES.callbackMismatch);
  return { valid: true };
}

/** The parts of an authorisation request (RFC 6749 §4.1.1 with PKCE, RFC 7636) the consent acts on. */
export function authorizationRequestOf(url: string) {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://placeholder');
  } catch {
    throw badRequest(APP_INTEGRATION_MESSAGES.badRequest);
  }
  const q = parsed.searchParams;
  const challenge = q.get('code_challenge') ?? '';
  if (
    q.get('response_type') !== 'code' ||
    !q.get('client_id') ||
    !q.get('redirect_uri') ||
    !/^[A-Za-z0-9._~-]{43,128}$/.test(challenge) ||
    q.get('code_challenge_method') !== 'S256'
  )
    throw badRequest(APP_INTEGRATION_MESSAGES.badRequest);
  const scope = q.get('scope')?.trim() || OAUTH_DEFAULT_SCOPE;
  if (scope !== OAUTH_DEFAULT_SCOPE) throw badRequest(`${APP_INTEGRATION_MESSAGES.badRequest} (scope)`);
  return {
    clientId: q.get('client_id')!,
    redirectUri: q.get('redirect_uri')!,
    state: q.get('state'),
    challenge,
    scope,
  };
}

/**
 * The signed-in user authorises an application (the consent page's Approve): the grant kept, an
 * authorisation code bound to the PKCE challenge and the redirect address issued, and the address
 * to send the browser back to answered.
 */
export async function authorizeApplication(
  request: FastifyRequest,
  clientId: string,
  username: string,
  url: string,
): Promise<{ redirectUri: string }> {
  const { principal } = request;
  const db = request.server.db;
  if (principal.kind !== 'user' || principal.user.name !== username)
    throw forbidden(APP_INTEGRATION_MESSAGES.otherUser);
  const asked = authorizationRequestOf(url);
  if (asked.clientId !== clientId) throw badRequest(APP_INTEGRATION_MESSAGES.badRequest);
  const client = await clientRow(db, { clientId });
  if (asked.redirectUri !== client.callback_url) throw badRequest(APP_INTEGRATION_MESSAGES.callbackMismatch);
  const code = await issueCode(request, {
    clientId,
    userId: principal.user.id,
    redirectUri: asked.redirectUri,
    challenge: asked.challenge,
    scope: asked.scope,
    audit: { target: username, client: client.name },
  });
  const back = new URL(asked.redirectUri);
  back.searchParams.set('code', code);
  if (asked.state !== null) back.searchParams.set('state', asked.state);
  return { redirectUri: back.toString() };
}

/** Keeps the user's grant and issues an authorisation code bound to the PKCE challenge and the redirect address. */
export async function issueCode(
  request: FastifyRequest,
  asked: {
    clientId: string;
    userId: string;
    redirectUri: string;
    challenge: string;
    scope: string;
    audit: { target: string; client: string };
  },
): Promise<string> {
  const code = randomBytes(32).toString('base64url');
  const now = Date.now();
  await request.server.db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('oauth_grants')
      .where('client_id', '=', asked.clientId)
      .where('user_id', '=', asked.userId)
      .execute();
    await trx
      .insertInto('oauth_grants')
      .values({ client_id: asked.clientId, user_id: asked.userId, scope: asked.scope, granted_at: now })
      .execute();
    await trx.deleteFrom('oauth_codes').where('expires_at', '<', now).execute();
    await trx
      .insertInto('oauth_codes')
      .values({
        code_hash: sha256(code),
        client_id: asked.clientId,
        user_id: asked.userId,
        redirect_uri: asked.redirectUri,
        code_challenge: asked.challenge,
        scope: asked.scope,
        expires_at: now + OAUTH_CODE_SECONDS * 1000,
        used_at: null,
      })
      .execute();
    await recordChange(trx, auditActor(request), {
      audit: {
        category: 'security',
        action: 'authorize application',
        target: asked.audit.target,
        after: { client: asked.audit.client },
      },
    });
  });
  return code;
}

/** The applications a user authorised. */
export async function userAuthorizations(db: Db, username: string): Promise<UserAuthorization[]> {
  const rows = await db
    .selectFrom('oauth_grants')
    .innerJoin('users', 'users.id', 'oauth_grants.user_id')
    .innerJoin('oauth_clients', 'oauth_clients.client_id', 'oauth_grants.client_id')
    .select(['users.name as username', 'oauth_grants.client_id', 'oauth_clients.name', 'oauth_grants.granted_at'])
    .where('users.name', '=', username)
    .orderBy('oauth_clients.name')
    .execute();
  return rows.map((r) => ({ username: r.username, client_id: r.client_id, name: r.name, granted: iso(r.granted_at) }));
}

/** Takes back a user's authorisation of an application: the grant goes, and every token it gave. */
export async function revokeAuthorization(request: FastifyRequest, clientId: string, username: string): Promise<void> {
  const db = request.server.db;
  const { principal } = request;
  const self = principal.kind === 'user' && principal.user.name === username;
  if (!self && !(principal.kind === 'user' && principal.user.admin === 1))
    throw forbidden(APP_INTEGRATION_MESSAGES.otherUser);
  const user = await findUserByName(db, username);
  const grant =
    user &&
    (await db
      .selectFrom('oauth_grants')
      .select('client_id')
      .where('client_id', '=', clientId)
      .where('user_id', '=', user.id)
      .executeTakeFirst());
  if (!user || !grant) throw notFound(APP_INTEGRATION_MESSAGES.noGrant);
  await db.transaction().execute(async (trx) => {
    const tokens = await trx
      .selectFrom('oauth_client_tokens')
      .select('token_id')
      .where('client_id', '=', clientId)
      .where('user_id', '=', user.id)
      .execute();
    await revokeTokensById(
      trx,
      tokens.map((t) => t.token_id),
    );
    await trx
      .deleteFrom('oauth_client_tokens')
      .where('client_id', '=', clientId)
      .where('user_id', '=', user.id)
      .execute();
    await trx.deleteFrom('oauth_grants').where('client_id', '=', clientId).where('user_id', '=', user.id).execute();
    await recordChange(trx, auditActor(request), {
      audit: { category: 'security', action: 'revoke application', target: username, before: { client: clientId } },
    });
  });
}

/** The client named by the request (HTTP Basic, or `client_id`/`client_secret` in the body), its secret checked. */
export async function authenticateClient(
  db: Db,
  authorization: string | undefined,
  body: Record<string, string | undefined>,
): Promise<OauthClientsTable> {
  let clientId = body.client_id;
  let secret = body.client_secret;
  if (authorization?.startsWith('Basic ')) {
    const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
    secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
  }
  const row =
    clientId && (await db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst());
  const ok = row && secret !== undefined && timingSafeEqual(Buffer.from(sha256(secret)), Buffer.from(row.secret_hash));
  if (!row || !ok) throw new OAuthError('invalid_client', 'The client is unknown or its secret is wrong.');
  return row;
}

/**
 * The token endpoint's authorisation-code grant: the code single use, unexpired, the client's,
 * for the same redirect address, and the PKCE verifier hashing to its challenge; answers an access
 * token for the user, kept with the client so that revoking the grant revokes it.
 */
export async function exchangeCode(
  request: FastifyRequest,
  client: OauthClientsTable,
  body: Record<string, string | undefined>,
): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number; scope: string }> {
  const db = request.server.db;
  const { code, redirect_uri: redirectUri, code_verifier: verifier } = body;
  if (!code || !redirectUri || !verifier) {
    throw new OAuthError('invalid_request', 'code, redirect_uri and code_verifier are required.');
  }
  const now = Date.now();
  const row = await db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', sha256(code)).executeTakeFirst();
  if (!row || row.expires_at <= now || row.client_id !== client.client_id || row.redirect_uri !== redirectUri) {
    throw new OAuthError(
      'invalid_grant',
      'The authorization code is unknown, expired, or was issued to another client.',
    );
  }
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  if (challenge !== row.code_challenge) {
    throw new OAuthError('invalid_grant', 'The code verifier does not match the code challenge.');
  }
  const taken = await db
    .updateTable('oauth_codes')
    .set({ used_at: now })
    .where('code_hash', '=', row.code_hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1)
    throw new OAuthError('invalid_grant', 'The authorization code was used already.');
  const user = await findUserById(db, row.user_id);
  if (!user) throw new OAuthError('invalid_grant', 'The user of this authorization code is gone.');
  const { tokenDefaultExpiryDays } = await getSecuritySettings(db, request.server.config);
  const expiresIn = tokenDefaultExpiryDays * 86_400;
  const description = `Application ${client.name}`;
  const created = await createAccessToken(
    db,
    user,
    { description, expiresIn, scope: row.scope },
    async (trx, token) => {
      await tokenCreated(request, user.name)(trx, token);
      await trx
        .insertInto('oauth_client_tokens')
        .values({ token_id: token.id, client_id: client.client_id, user_id: user.id })
        .execute();
    },
  );
  return { access_token: created.token, token_type: 'Bearer', expires_in: expiresIn, scope: row.scope };
}
