import { outboundFetch, type OutboundProxy } from '../../core/outbound.js';
import type { RepositoryRow } from '../../db/schema.js';

/** A `WWW-Authenticate` challenge: its scheme and parameters (`realm`, `service`, `scope` …). */
export interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/** Reads the first challenge of a `WWW-Authenticate` header; undefined when there is none. */
export function parseChallenge(header: string | null | undefined): Challenge | undefined {
  const match = /^\s*([A-Za-z][\w-]*)\s*(.*)$/.exec(header ?? '');
  if (!match) return undefined;
  const params: Record<string, string> = {};
  for (const [, key, quoted, bare] of match[2]!.matchAll(/([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g))
    params[key!.toLowerCase()] = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : bare!;
  return { scheme: match[1]!.toLowerCase(), params };
}

/** Tokens this process holds, by repository, credentials and scope, until shortly before they expire. */
const tokens = new Map<string, { authorization: string; expiresAt: number }>();
/** Longest a token is kept, whatever it says of itself. */
const MAX_TOKEN_SECONDS = 3600;
/** A token is not used in its last seconds (the request may reach the upstream after it expired). */
const EXPIRY_MARGIN_MS = 10_000;

const basic = (repo: RepositoryRow) =>
  `Basic ${Buffer.from(`${repo.username}:${repo.password ?? ''}`).toString('base64')}`;
const tokenKey = (repo: RepositoryRow, scope: string) => `${repo.key}\n${repo.username}\n${repo.url}\n${scope}`;

/** A token fetched earlier for this repository and scope, still valid: sent with the first request. */
export function heldToken(repo: RepositoryRow, scope: string | undefined): string | undefined {
  if (scope === undefined) return undefined;
  const held = tokens.get(tokenKey(repo, scope));
  if (held && held.expiresAt > Date.now()) return held.authorization;
  tokens.delete(tokenKey(repo, scope));
  return undefined;
}

/**
 * What to send again after an upstream answered 401 with `challenge`: basic credentials when it
 * asks for them (and they were not sent), or a bearer token from the challenge's realm — the
 * token flow of container registries (Docker Hub, GHCR, Harbor, Arca itself). The realm is asked
 * only over HTTPS or on the upstream's own host (with the repository's credentials, if any;
 * without, anonymously for public images). Undefined when nothing more can be tried.
 */
export async function answerChallenge(
  repo: RepositoryRow,
  challenge: Challenge | undefined,
  sentBasic: boolean,
  allowed: readonly string[],
  proxy?: OutboundProxy,
): Promise<string | undefined> {
  if (!challenge) return undefined;
  if (challenge.scheme === 'basic') return repo.username && !sentBasic ? basic(repo) : undefined;
  if (challenge.scheme !== 'bearer' || !challenge.params.realm) return undefined;
  let realm: URL;
  try {
    realm = new URL(challenge.params.realm);
  } catch {
    return undefined;
  }
  if (challenge.params.service) realm.searchParams.set('service', challenge.params.service);
  if (challenge.params.scope) realm.searchParams.set('scope', challenge.params.scope);
  // the realm is the upstream's word: it is asked only over HTTPS or on the upstream's own host,
  // so that an upstream (or whoever sits on its plain-HTTP path) cannot point Arca at any address
  const trusted = realm.protocol === 'https:' || realm.host === new URL(repo.url).host;
  if (!trusted) return undefined;
  const response = await outboundFetch(realm.toString(), {
    headers: repo.username ? { authorization: basic(repo) } : {},
    allowed,
    proxy,
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  const answer = (await response.json().catch(() => ({}))) as {
    token?: string;
    access_token?: string;
    expires_in?: number;
  };
  const token = answer.token ?? answer.access_token;
  if (!token) return undefined;
  const authorization = `Bearer ${token}`;
  const seconds = Math.min(Math.max(Number(answer.expires_in) || 60, 1), MAX_TOKEN_SECONDS);
  tokens.set(tokenKey(repo, challenge.params.scope ?? ''), {
    authorization,
    expiresAt: Date.now() + seconds * 1000 - EXPIRY_MARGIN_MS,
  });
  return authorization;
}
