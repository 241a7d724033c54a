import type { FastifyRequest } from 'fastify';
import { recordWith } from '../audit/audit.service.js';
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
import { badRequest, notFound, unauthorized } from '../../core/errors.js';
import { groupsOfUser } from '../groups/groups.service.js';

/** Prefixes tell a token or API key from a password in HTTP basic credentials. */
export const ACCESS_TOKEN_PREFIX = 'arca_';
export const API_KEY_PREFIX = 'AKC';

const API_KEY = 'api_key';
const ACCESS_TOKEN = 'token';

/** Tokens are random (256 bits), so one SHA-256 is enough: no slow KDF on every request. */
export const tokenHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

export function looksLikeToken(secret: string): boolean {
  return secret.startsWith(ACCESS_TOKEN_PREFIX) || secret.startsWith(API_KEY_PREFIX);
}

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
  const groups = scopeGroups(scope);
  if (!groups || groups.length === 0) throw badRequest(TOKEN_MESSAGES.badScope);
  const mine = await groupsOfUser(db, user.id);
  const outside = groups.find((g) => !mine.includes(g));
  if (outside) throw badRequest(formatMessage(TOKEN_MESSAGES.scopeGroupNotMember, { name: outside }));
}

export async function createAccessToken(
  db: Db,
  user: UserRow,
  input: Required<CreateToken>,
  onChange?: OnChange<AccessTokenRow>,
  now = Date.now(),
): Promise<{ row: AccessTokenRow; token: string }> {
  await checkScope(db, user, input.scope);
  const token = ACCESS_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const row: AccessTokenRow = {
    id: randomUUID(),
    user_id: user.id,
    kind: ACCESS_TOKEN,
    token_hash: tokenHash(token),
    description: input.description,
    scope: input.scope,
    created_at: now,
    expires_at: input.expiresIn > 0 ? now + input.expiresIn * 1000 : null,
    last_used_at: null,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('access_tokens').values(row).execute();
    await onChange?.(trx, row);
  });
  return { row, token };
}

/** Tokens of one user, or of everyone (administrators), newest first, with their owners' names. */
export async function listAccessTokens(db: Db, userId?: string): Promise<AccessToken[]> {
  let query = db
    .selectFrom('access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .selectAll('t')
    .select('u.name as user_name')
    .where('t.kind', '=', ACCESS_TOKEN);
  if (userId) query = query.where('t.user_id', '=', userId);
  const rows = await query.orderBy('t.created_at', 'desc').execute();
  return rows.map((row) => toAccessToken(row, row.user_name));
}

/** Revokes a token; `ownerId` limits it to that user's tokens (404 otherwise, revealing nothing). */
export async function revokeAccessToken(
  db: Db,
  id: string,
  ownerId: string | undefined,
  onChange?: OnChange<AccessToken>,
): Promise<AccessToken> {
  let query = db
    .selectFrom('access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .selectAll('t')
    .select('u.name as user_name')
    .where('t.id', '=', id)
    .where('t.kind', '=', ACCESS_TOKEN);
  if (ownerId) query = query.where('t.user_id', '=', ownerId);
  const row = await query.executeTakeFirst();
  if (!row) throw notFound(TOKEN_MESSAGES.notFound);
  const revoked = toAccessToken(row, row.user_name);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('access_tokens').where('id', '=', id).execute();
    await onChange?.(trx, revoked);
  });
  return revoked;
}

export async function apiKeyState(db: Db, userId: string): Promise<ApiKeyState> {
  const row = await db
    .selectFrom('access_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', API_KEY)
    .executeTakeFirst();
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
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('access_tokens').where('user_id', '=', userId).where('kind', '=', API_KEY).execute();
    await trx
      .insertInto('access_tokens')
      .values({
        id: randomUUID(),
        user_id: userId,
        kind: API_KEY,
        token_hash: tokenHash(key),
        description: 'API key',
        scope: TOKEN_SCOPE_USER,
        created_at: now,
        expires_at: null,
        last_used_at: null,
      })
      .execute();
    await onChange?.(trx, undefined);
  });
  return key;
}

export async function revokeApiKey(db: Db, userId: string, onChange?: OnChange<undefined>): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom('access_tokens')
      .where('user_id', '=', userId)
      .where('kind', '=', API_KEY)
      .executeTakeFirst();
    const revoked = Number(result.numDeletedRows) > 0;
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
    const row = await db
      .selectFrom('access_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .selectAll('u')
      .select([
        't.id as token_id',
        't.kind as token_kind',
        't.scope as token_scope',
        't.expires_at as token_expires_at',
        't.last_used_at as token_last_used_at',
      ])
      .where('t.token_hash', '=', hash)
      .executeTakeFirst();
    // an unknown secret is not kept: guesses must not fill the cache
    if (!row) throw unauthorized(TOKEN_MESSAGES.invalid);
    return row;
  });
  if (kind !== 'any' && found.token_kind !== kind) throw unauthorized(TOKEN_MESSAGES.invalid);
  const { token_id, token_kind: _kind, token_scope, token_expires_at, token_last_used_at, ...user } = found;
  if (token_expires_at !== null && token_expires_at <= now) throw unauthorized(TOKEN_MESSAGES.expired);
  if (token_last_used_at === null || now - token_last_used_at >= LAST_USED_EVERY_MS) {
    found.token_last_used_at = now;
    await db.updateTable('access_tokens').set({ last_used_at: now }).where('id', '=', token_id).execute();
  }
  return { user, scopeGroups: scopeGroups(token_scope) };
}

/** Records a new token's audit entry and event in its transaction; the secret reaches neither. */
export const tokenCreated = (request: FastifyRequest, owner: string, action = 'create access token') =>
  recordWith<AccessTokenRow>(request, (_trx, row) => ({
    audit: { category: 'token', action, target: owner, after: toAccessToken(row, owner) },
    event: { type: 'token.created', payload: { id: row.id, user: owner } },
  }));
