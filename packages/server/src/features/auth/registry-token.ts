import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AUTH_MESSAGES } from '@arca/contracts';
import { unauthorized } from '../../core/errors.js';
import { cachedConfigPresent } from '../../core/config-cache.js';
import { getSetting, putSettingOnce } from '../../core/settings.store.js';
import type { Principal } from '../../core/principals.js';
import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';
import { findUserById } from '../identity/index.js';

/**
 * The bearer tokens of the container registry's token flow (Docker's `/v2/token`): short-lived,
 * signed by a key kept in the settings, naming the user (or anonymous) and the groups a scoped
 * access token was limited to. They carry no rights of their own: every call is checked against
 * the user's permissions as it is made.
 */
export const REGISTRY_TOKEN_PREFIX = 'arcareg.';
export const REGISTRY_TOKEN_SECONDS = 3600;

interface Claims {
  /** The user's id; null for anonymous. */
  u: string | null;
  g?: string[];
  /** Expiry, ms since the epoch. */
  e: number;
  /** When the user's password last changed (ms): a newer password ends the token. */
  p?: number;
}

async function tokenKey(db: Db): Promise<Buffer> {
  let key = await getSetting(db, 'registry.tokenKey');
  if (!key) {
    // made once: a second node racing here writes its own, and both then read the one that stayed
    const fresh = randomBytes(32).toString('base64');
    key = await putSettingOnce(db, 'registry.tokenKey', fresh);
  }
  return Buffer.from(key, 'base64');
}

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

const passwordStamp = (user: UserRow) => user.password_changed_at ?? user.created_at;

/** A registry token for the caller, valid for an hour (or until the user's password changes). */
export async function issueRegistryToken(db: Db, principal: Principal, now = Date.now()): Promise<string> {
  const claims: Claims = {
    u: principal.kind === 'user' ? principal.user.id : null,
    ...(principal.kind === 'user' && principal.scopeGroups ? { g: principal.scopeGroups } : {}),
    e: now + REGISTRY_TOKEN_SECONDS * 1000,
    ...(principal.kind === 'user' ? { p: passwordStamp(principal.user) } : {}),
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${REGISTRY_TOKEN_PREFIX}${payload}.${sign(await tokenKey(db), payload)}`;
}

/** Who a registry token speaks for; 401 when it is forged, expired or its user is gone. */
export async function registryTokenPrincipal(db: Db, token: string, now = Date.now()): Promise<Principal> {
  const [payload = '', signature = ''] = token.slice(REGISTRY_TOKEN_PREFIX.length).split('.');
  const expected = Buffer.from(sign(await tokenKey(db), payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw unauthorized(AUTH_MESSAGES.badCredentials);
  let claims: Claims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims;
  } catch {
    throw unauthorized(AUTH_MESSAGES.badCredentials);
  }
  if (typeof claims.e !== 'number' || claims.e <= now) throw unauthorized('The token has expired.');
  if (claims.u === null) return { kind: 'anonymous' };
  const user = await cachedConfigPresent(db, `user-by-id:${claims.u}`, () => findUserById(db, claims.u!));
  if (!user || claims.p !== passwordStamp(user)) throw unauthorized(AUTH_MESSAGES.badCredentials);
  return claims.g
    ? { kind: 'user', user: { ...user, admin: 0 }, sessionId: null, scopeGroups: claims.g, via: 'registry' }
    : { kind: 'user', user, sessionId: null, via: 'registry' };
}
