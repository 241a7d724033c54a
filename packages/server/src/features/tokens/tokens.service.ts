import type { FastifyRequest } from 'fastify';
import { recordWith } from '../../core/audit.js';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  TOKEN_MESSAGES,
  TOKEN_SCOPE_GROUPS_PREFIX,
  TOKEN_SCOPE_USER,
  formatMessage,
  type AccessToken,
  type ApiKeyState,
  type CreateToken,
} from '@arca/contracts';
import type { OnChange } from '../../core/changes.js';
import { cachedConfig } from '../../core/config-cache.js';
import type { Db } from '../../db/database.js';
import type { AccessTokenRow, UserRow } from '../../db/schema.js';
import { badRequest, forbidden, notFound, unauthorized } from '../../core/errors.js';
import { TOKEN_SERVICE, isJwt, signToken } from './tokens.jwt.js';
import { groupsOfUser } from '../groups/index.js';
import {
  deleteToken,
  deleteUserTokens,
  insertToken,
  tokenByHash,
  tokenByRefreshHash,
  tokenIdByHash,
  tokensWithOwners,
  touchToken,
  userToken,
} from './tokens.store.js';
import { seal, unseal } from '../../core/sealing.js';

/** Prefixes tell a token or API key from a password in HTTP basic credentials. */
export const ACCESS_TOKEN_PREFIX = 'arca_';
export const API_KEY_PREFIX = 'AKC';

const API_KEY = 'api_key';
const ACCESS_TOKEN = 'token';

/** Tokens are random (256 bits), so one SHA-256 is enough: no slow KDF on every request. */
export const tokenHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

export function looksLikeToken(secret: string): boolean {
  return secret.startsWith(ACCESS_TOKEN_PREFIX) || secret.startsWith(API_KEY_PREFIX) || isJwt(secret);
}

/** The scope of a token with an administrator's rights (only administrators may create one). */
export const TOKEN_SCOPE_ADMIN = 'applied-permissions/admin';
/** Refresh tokens: random, answered once, stored as their SHA-256. */
const REFRESH_TOKEN_PREFIX = 'arcarefresh_';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toAccessToken(row: AccessTokenRow, user: string): AccessToken {
  return {
    id: row.id,
    user,
    description: row.description,
    scope: row.scope,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: iso(row.expires_at),
    lastUsedAt: iso(row.last_used_at),
  };
}

/** The groups a scope limits the token to, or undefined for the user's full rights. */
export function scopeGroups(scope: string): string[] | undefined {
  if (!scope.startsWith(TOKEN_SCOPE_GROUPS_PREFIX)) return undefined;
  return scope
    .slice(TOKEN_SCOPE_GROUPS_PREFIX.length)
    .split(',')
    .map((g) => g.trim())
    .filter(Boolean);
}

async function checkScope(db: Db, user: UserRow, scope: string): Promise<void> {
  if (scope === TOKEN_SCOPE_USER) return;
  if (scope === TOKEN_SCOPE_ADMIN) {
    if (user.admin !== 1) throw forbidden(TOKEN_MESSAGES.adminScope);
    return;
  }
  const groups = scopeGroups(scope);
  if (!groups || groups.length === 0) throw badRequest(TOKEN_MESSAGES.badScope);
  const mine = await groupsOfUser(db, user.id);
  const outside = groups.find((g) => !mine.includes(g));
  if (outside) throw badRequest(formatMessage(TOKEN_MESSAGES.scopeGroupNotMember, { name: outside }));
}

/**
 * Creates an access token for a user: a JWT signed by the deployment (see tokens.jwt.ts), stored
 * as its SHA-256; with `refreshable`, a refresh token too (answered once, stored hashed).
 */
export async function createAccessToken(
  db: Db,
  user: UserRow,
  input: Required<Pick<CreateToken, 'description' | 'expiresIn' | 'scope'>> & { refreshable?: boolean },
  onChange?: OnChange<AccessTokenRow>,
  now = Date.now(),
  /** Replaced in the same transaction (a refresh): the old pair ends as the new one starts. */
  replaces?: string,
): Promise<{ row: AccessTokenRow; token: string; refreshToken?: string }> {
  await checkScope(db, user, input.scope);
  const id = randomUUID();
  const token = await signToken(db, {
    sub: `${TOKEN_SERVICE}/users/${user.name}`,
    scp: input.scope,
    aud: '*@*',
    iss: TOKEN_SERVICE,
    iat: Math.floor(now / 1000),
    ...(input.expiresIn > 0 ? { exp: Math.floor(now / 1000) + input.expiresIn } : {}),
    jti: id,
  });
  const refreshToken = input.refreshable ? REFRESH_TOKEN_PREFIX + randomBytes(32).toString('base64url') : undefined;
  const row: AccessTokenRow = {
    id,
    user_id: user.id,
    kind: ACCESS_TOKEN,
    token_hash: tokenHash(token),
    description: input.description,
    scope: input.scope,
    created_at: now,
    expires_at: input.expiresIn > 0 ? now + input.expiresIn * 1000 : null,
    last_used_at: null,
    refresh_hash: refreshToken ? tokenHash(refreshToken) : null,
    sealed: null,
  };
  await db.transaction().execute(async (trx) => {
    await insertToken(trx, row, replaces);
    await onChange?.(trx, row);
  });
  return { row, token, ...(refreshToken ? { refreshToken } : {}) };
}

/**
 * Exchanges a refresh token (and, when given, the access token it came with) for a new pair with
 * the same owner, scope, description and lifetime; the old pair stops working at once.
 */
export async function refreshAccessToken(
  db: Db,
  refreshToken: string,
  accessToken: string | undefined,
  onChange?: (owner: UserRow) => OnChange<AccessTokenRow>,
  now = Date.now(),
): Promise<{ row: AccessTokenRow; token: string; refreshToken?: string; user: UserRow }> {
  const found = await tokenByRefreshHash(db, tokenHash(refreshToken), ACCESS_TOKEN);
  if (!found || (accessToken && tokenHash(accessToken) !== found.token_hash))
    throw unauthorized(TOKEN_MESSAGES.badRefresh);
  const {
    token_id,
    token_hash: _hash,
    token_description,
    token_scope,
    token_created_at,
    token_expires_at,
    ...user
  } = found;
  const lifetime = token_expires_at === null ? 0 : Math.round((token_expires_at - token_created_at) / 1000);
  const created = await createAccessToken(
    db,
    user,
    { description: token_description, scope: token_scope, expiresIn: lifetime, refreshable: true },
    onChange?.(user),
    now,
    token_id,
  );
  return { ...created, user };
}

/** Revokes the token given itself (not its id), for its owner or an administrator. */
export async function revokeAccessTokenBySecret(
  db: Db,
  secret: string,
  ownerId: string | undefined,
  onChange?: OnChange<AccessToken>,
): Promise<AccessToken> {
  const id = await tokenIdByHash(db, tokenHash(secret), ACCESS_TOKEN, ownerId);
  if (!id) throw notFound(TOKEN_MESSAGES.notFound);
  return revokeAccessToken(db, id, ownerId, onChange);
}

/** Tokens of one user, or of everyone (administrators), newest first, with their owners' names. */
export async function listAccessTokens(db: Db, userId?: string): Promise<AccessToken[]> {
  const rows = await tokensWithOwners(db, ACCESS_TOKEN, userId ? { userId } : {});
  return rows.map((row) => toAccessToken(row, row.user_name));
}

/** Revokes tokens by id, inside the caller's transaction (what a revoked grant or a deleted application held). */
export async function revokeTokensById(trx: Db, ids: string[]): Promise<void> {
  for (const id of ids) await deleteToken(trx, id);
}

/** Revokes a token; `ownerId` limits it to that user's tokens (404 otherwise, revealing nothing). */
export async function revokeAccessToken(
  db: Db,
  id: string,
  ownerId: string | undefined,
  onChange?: OnChange<AccessToken>,
): Promise<AccessToken> {
  const [row] = await tokensWithOwners(db, ACCESS_TOKEN, { id, ...(ownerId ? { userId: ownerId } : {}) });
  if (!row) throw notFound(TOKEN_MESSAGES.notFound);
  const revoked = toAccessToken(row, row.user_name);
  await db.transaction().execute(async (trx) => {
    await deleteToken(trx, id);
    await onChange?.(trx, revoked);
  });
  return revoked;
}

export async function apiKeyState(db: Db, userId: string): Promise<ApiKeyState> {
  const row = await userToken(db, userId, API_KEY);
  return { exists: !!row, createdAt: iso(row?.created_at ?? null), lastUsedAt: iso(row?.last_used_at ?? null) };
}

/** Creates the user's API key, replacing any earlier one; the key is answered once. */
export async function generateApiKey(
  db: Db,
  userId: string,
  onChange?: OnChange<undefined>,
  now = Date.now(),
): Promise<string> {
  const key = API_KEY_PREFIX + randomBytes(48).toString('base64url');
  const sealed = await seal(db, apiKeyContext(userId), key);
  await db.transaction().execute(async (trx) => {
    await deleteUserTokens(trx, userId, API_KEY);
    await insertToken(trx, {
      id: randomUUID(),
      user_id: userId,
      kind: API_KEY,
      token_hash: tokenHash(key),
      description: 'API key',
      scope: TOKEN_SCOPE_USER,
      created_at: now,
      expires_at: null,
      last_used_at: null,
      refresh_hash: null,
      sealed,
    });
    await onChange?.(trx, undefined);
  });
  return key;
}

const apiKeyContext = (userId: string) => `api-key:${userId}`;

/**
 * The user's API key, for its owner to read back (Artifactory answers it to `GET
 * /api/security/apiKey`); undefined when there is none, or it was made before keys were sealed.
 */
export async function readApiKey(db: Db, userId: string): Promise<string | undefined> {
  const row = await userToken(db, userId, API_KEY);
  return row?.sealed ? unseal(db, apiKeyContext(userId), row.sealed) : undefined;
}

export async function revokeApiKey(db: Db, userId: string, onChange?: OnChange<undefined>): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const revoked = await deleteUserTokens(trx, userId, API_KEY);
    if (revoked) await onChange?.(trx, undefined);
    return revoked;
  });
}

/** Record use at most once a minute, so that every client request does not write. */
const LAST_USED_EVERY_MS = 60_000;

/**
 * Finds the user behind a token or API key by its SHA-256. `kind` limits which of the two is
 * accepted (Bearer takes access tokens, X-JFrog-Art-Api API keys, basic either).
 */
export async function resolveToken(
  db: Db,
  secret: string,
  kind: 'token' | 'api_key' | 'any',
  now = Date.now(),
  /** The secret's SHA-256, when the caller has it already. */
  hash = tokenHash(secret),
): Promise<{ user: UserRow; scopeGroups: string[] | undefined }> {
  // the token and its owner in one indexed read, kept per process while the configuration
  // generation stays the same (revoking a token or changing its owner is a recorded change)
  const found = await cachedConfig(db, `token:${hash}`, async () => {
    const row = await tokenByHash(db, hash);
    // an unknown secret is not kept: guesses must not fill the cache
    if (!row) throw unauthorized(TOKEN_MESSAGES.invalid);
    return row;
  });
  if (kind !== 'any' && found.token_kind !== kind) throw unauthorized(TOKEN_MESSAGES.invalid);
  const { token_id, token_kind: _kind, token_scope, token_expires_at, token_last_used_at, ...user } = found;
  if (token_expires_at !== null && token_expires_at <= now) throw unauthorized(TOKEN_MESSAGES.expired);
  if (token_last_used_at === null || now - token_last_used_at >= LAST_USED_EVERY_MS) {
    found.token_last_used_at = now;
    await touchToken(db, token_id, now);
  }
  return { user, scopeGroups: scopeGroups(token_scope) };
}

/** Records a new token's audit entry and event in its transaction; the secret reaches neither. */
export const tokenCreated = (request: FastifyRequest, owner: string, action = 'create access token') =>
  recordWith<AccessTokenRow>(request, (_trx, row) => ({
    audit: { category: 'token', action, target: owner, after: toAccessToken(row, owner) },
    event: { type: 'token.created', payload: { id: row.id, user: owner } },
  }));
