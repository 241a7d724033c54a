import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Response } from 'undici';
import { outboundProxy } from '../../core/proxies.js';
import { basicAuthOf, reasonOf, sameHost, upstreamFetch } from '../repositories/index.js';
import { ARTIFACT_MESSAGES, TRASHCAN_REPO, formatMessage as fill } from '@arca/contracts';
import { HttpError } from '../../core/errors.js';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';
import { cacheRemoteFile, virtualMembers, type ArtifactContext } from './artifacts.service.js';
import { findItem } from './artifacts.store.js';

const inflight = new Map<string, Promise<ItemRow | undefined>>();

function upstreamUrl(ctx: ArtifactContext, repo: RepositoryRow, path: string): string {
  const upstreamPath = ctx.upstreamPath?.(repo, path) ?? path.split('/').map(encodeURIComponent).join('/');
  if (/^https?:\/\//.test(upstreamPath)) return upstreamPath;
  return `${repo.url.replace(/\/+$/, '')}/${upstreamPath}`;
}

/** A small file the repository holds (a cached index page), without asking its upstream. */
async function readCached(ctx: ArtifactContext, repo: RepositoryRow, path: string): Promise<Buffer | undefined> {
  const item = await findItem(ctx.db, repo.key, path);
  if (!item || item.folder === 1 || !item.sha256 || Number(item.size) > 16 * 1024 * 1024) return undefined;
  return ctx.store.readSmall(item.sha256, Number(item.size));
}

/**
 * Fetches a file from a remote repository's upstream and caches it. Undefined when the upstream
 * does not have it or cannot be reached. Concurrent requests for one path share one fetch.
 */
/** The 502 a request for a remote repository's file gets when its upstream cannot answer. */
const upstreamUnavailable = (repo: RepositoryRow, url: string, reason: string) =>
  new HttpError(502, fill(ARTIFACT_MESSAGES.upstreamUnavailable, { key: repo.key, url: new URL(url).origin, reason }));

export function fetchRemote(ctx: ArtifactContext, repo: RepositoryRow, path: string): Promise<ItemRow | undefined> {
  // offline: what is cached is all there is
  if (Number(repo.offline) === 1) return Promise.resolve(undefined);
  const key = `${repo.key}/${path}`;
  const running = inflight.get(key);
  if (running) return running;
  const work = (async () => {
    const headers: Record<string, string> = { ...ctx.upstreamHeaders?.(repo, path) };
    const metadata = async (other: string) => {
      if (other === path) return undefined;
      const found = await resolveItem(ctx, repo, other);
      return found && found.item.folder !== 1 ? readCached(ctx, repo, other) : undefined;
    };
    const addressed = await ctx.upstreamAddress?.(repo, path, metadata);
    let url = addressed ?? upstreamUrl(ctx, repo, path);
    if (!addressed && !sameHost(url, repo.url)) {
      // a remote repository fetches what its upstream serves: another host only at the address
      // the upstream listed (never one a caller made up)
      const listed = await ctx.listedElsewhere?.(repo, path, (p) => readCached(ctx, repo, p));
      if (!listed) return undefined;
      url = listed;
    }
    // a registry is asked as Docker clients ask it: with a token held for the scope, else without
    // credentials, answering its challenge; other upstreams get the credentials at once
    const registry = ctx.upstreamAuth?.(repo, path);
    const held = registry?.held();
    const sentBasic = !registry && Boolean(repo.username) && sameHost(url, repo.url);
    if (held) headers.authorization = held;
    else if (sentBasic) headers.authorization = basicAuthOf(repo);
    let response: Response;
    try {
      const allowed = (await ctx.allowedHosts?.()) ?? [];
      response = await upstreamFetch(ctx.db, repo, url, { headers, allowed });
      if (response.status === 401 && registry && sameHost(url, repo.url)) {
        const proxy = await outboundProxy(ctx.db, repo.proxy_key);
        const authorization = await registry.answer(response.headers.get('www-authenticate'), allowed, proxy);
        if (authorization) {
          await response.body?.cancel().catch(() => undefined);
          response = await upstreamFetch(ctx.db, repo, url, { headers: { ...headers, authorization }, allowed });
        }
      }
    } catch (error) {
      ctx.log?.warn({ err: error, repo: repo.key, path }, 'fetching from the upstream failed');
      // unreachable is not "no such package": the client is told which repository and why
      throw upstreamUnavailable(repo, url, reasonOf(error));
    }
    if (response.status >= 500 || response.status === 429) {
      await response.body?.cancel().catch(() => undefined);
      throw upstreamUnavailable(repo, url, `it answered ${response.status} ${response.statusText}`.trim());
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      return undefined;
    }
    const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    try {
      return await cacheRemoteFile(ctx, repo, path, body, {
        sha256: response.headers.get('x-checksum-sha256') ?? undefined,
        sha1: response.headers.get('x-checksum-sha1') ?? undefined,
      });
    } catch (error) {
      ctx.log?.warn({ err: error, repo: repo.key, path }, 'caching a remote file failed');
      return undefined;
    }
  })().finally(() => inflight.delete(key));
  inflight.set(key, work);
  return work;
}

export interface Resolved {
  repo: RepositoryRow;
  item: ItemRow;
}

/**
 * Finds what a path means in a repository: the item of a local repository (or the trash can);
 * the cached item of a remote one, fetching it from the upstream on a miss; the first member
 * that has it for a virtual one. Folders resolve as well, without fetching.
 */
export async function resolveItem(
  ctx: ArtifactContext,
  repo: RepositoryRow,
  path: string,
  mayRead: (repoKey: string, path: string) => Promise<boolean> = async () => true,
): Promise<Resolved | undefined> {
  if (repo.rclass === 'virtual') {
    // a member the caller may not read is not consulted: the virtual repository grants nothing of its own
    let unavailable: HttpError | undefined;
    for (const member of await virtualMembers(ctx.db, repo)) {
      if (!(await mayRead(member.key, path))) continue;
      try {
        const found = await resolveItem(ctx, member, path, mayRead);
        if (found) return found;
      } catch (error) {
        // a member whose upstream is down: the next members may have it; if none has, say why
        if (!(error instanceof HttpError) || error.statusCode !== 502) throw error;
        unavailable ??= error;
      }
    }
    if (unavailable) throw unavailable;
    return undefined;
  }
  const cached = await findItem(ctx.db, repo.key, path);
  const maxAge = repo.rclass === 'remote' && cached ? ctx.metadataMaxAgeMs?.(repo, path) : undefined;
  if (cached && maxAge !== undefined && cached.modified_at + maxAge <= Date.now()) {
    // stale metadata: ask the upstream again, and serve the cached copy when it cannot answer
    const fresh = await fetchRemote(ctx, repo, path).catch((error: unknown) => {
      if (error instanceof HttpError && error.statusCode === 502) return undefined;
      throw error;
    });
    return { repo, item: fresh ?? cached };
  }
  if (cached) return { repo, item: cached };
  if (repo.rclass === 'remote' && repo.key !== TRASHCAN_REPO && path) {
    const fetched = await fetchRemote(ctx, repo, path);
    if (fetched) return { repo, item: fetched };
  }
  return undefined;
}
