import { getSetting } from '../../core/settings.store.js';
import type { Response } from 'undici';
import { outboundFetch, type OutboundTimeouts } from '../../core/outbound.js';
import { outboundProxy } from '../../core/proxies.js';
import { outboundTls } from '../../core/certificates.js';
import type { Db } from '../../db/database.js';
import type { RepositoryRow } from '../../db/schema.js';

/** A request to an offline remote repository's upstream: it is never made. */
export class RemoteOffline extends Error {
  constructor(readonly repoKey: string) {
    super(`the remote repository '${repoKey}' is offline`);
  }
}

export interface UpstreamInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** The hosts the outbound policy lets through (the caller holds them). */
  allowed: readonly string[];
  /** Sends the repository's user and password, to its own host only. */
  credentials?: boolean;
  /** Shorter limits than the repository's own (a search that must not hold up a page). */
  timeouts?: Partial<OutboundTimeouts>;
  /** A trial of settings not saved (the console's Test): its answer is not recorded as the repository's state. */
  probe?: boolean;
}

/** The repository's credentials go to its upstream's host only, never to another host it links to. */
export function sameHost(url: string, repoUrl: string): boolean {
  try {
    return new URL(url).host === new URL(repoUrl).host;
  } catch {
    return false;
  }
}

export const basicAuthOf = (repo: Pick<RepositoryRow, 'username' | 'password'>) =>
  `Basic ${Buffer.from(`${repo.username}:${repo.password ?? ''}`).toString('base64')}`;

/** Why a request to an upstream failed, in words (the network's code, the policy's refusal). */
export function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as NodeJS.ErrnoException).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its host name could not be resolved';
  if (code === 'ECONNREFUSED') return 'the connection was refused';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return 'the connection timed out';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'it did not answer in time';
  return cause?.message ?? (error as Error).message;
}

/**
 * What this process last recorded per remote and settings version: a state is written when it
 * changes, not on every request, and again by every process once the settings change.
 */
const noted = new Map<string, string | null>();

/** Records whether a remote's upstream answered (null) or why not; read by the repository's page. */
export async function noteRemoteState(
  db: Db,
  repo: Pick<RepositoryRow, 'key' | 'updated_at'>,
  error: string | null,
): Promise<void> {
  const memo = `${repo.key}@${repo.updated_at}`;
  if (noted.has(memo) && noted.get(memo) === error) return;
  noted.set(memo, error);
  const values = { reachable: error === null ? 1 : 0, since: Date.now(), last_error: error?.slice(0, 1000) ?? null };
  await db
    .insertInto('remote_states')
    .values({ repo_key: repo.key, ...values })
    .onConflict((oc) => oc.column('repo_key').doUpdateSet(values))
    .execute()
    .catch(() => noted.delete(memo));
}

/** A remote repository's settings changed: what was recorded of its upstream no longer holds. */
export async function forgetRemoteState(db: Db, repoKey: string): Promise<void> {
  await db.deleteFrom('remote_states').where('repo_key', '=', repoKey).execute();
}

/**
 * The one way a remote repository reaches its upstream: never when it is offline; through its
 * proxy, with its client certificate, within its socket timeout and the outbound policy; its
 * credentials to its own host when asked for. Whether the upstream answered is recorded.
 */
export async function upstreamFetch(db: Db, repo: RepositoryRow, url: string, init: UpstreamInit): Promise<Response> {
  if (Number(repo.offline) === 1 || (await getSetting(db, 'general')).globalOfflineMode)
    throw new RemoteOffline(repo.key);
  const headers = { ...init.headers };
  if (init.credentials && repo.username && !headers.authorization && sameHost(url, repo.url))
    headers.authorization = basicAuthOf(repo);
  const [proxy, tls] = await Promise.all([
    outboundProxy(db, repo.proxy_key),
    outboundTls(db, repo.client_tls_certificate),
  ]);
  const limit = Number(repo.socket_timeout_ms) || 15_000;
  try {
    const response = await outboundFetch(url, {
      method: init.method ?? 'GET',
      headers,
      ...(init.body !== undefined ? { body: init.body } : {}),
      allowed: init.allowed,
      ...(proxy ? { proxy } : {}),
      ...(tls ? { tls } : {}),
      timeouts: { connectMs: limit, firstByteMs: limit, idleMs: limit, ...init.timeouts },
    });
    const failed = response.status >= 500 || response.status === 429;
    if (!init.probe && sameHost(url, repo.url))
      await noteRemoteState(db, repo, failed ? `it answered ${response.status} ${response.statusText}`.trim() : null);
    return response;
  } catch (error) {
    if (!init.probe && sameHost(url, repo.url)) await noteRemoteState(db, repo, reasonOf(error));
    throw error;
  }
}
