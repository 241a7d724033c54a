import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../core/principals.js';
import { allowedOutboundHosts } from '../../core/settings.store.js';
import type { UpstreamHit } from '../../formats/format.js';
import { listRepositories, upstreamFetch } from '../repositories/index.js';
import { canSee, readableRepositories } from './aql.service.js';

/** An upstream gets this long to connect and to answer. */
const UPSTREAM_TIMEOUTS = { connectMs: 5_000, firstByteMs: 10_000, idleMs: 10_000 };

export interface RemoteSearchAnswer {
  hits: (UpstreamHit & { repoKey: string; packageType: string })[];
  /** Repositories whose upstream could not be searched, each with why: the others still answer. */
  errors: { repoKey: string; message: string }[];
}

/**
 * Searches the upstream indexes of the remote repositories the caller may read (those whose
 * format can search its upstream: npm's search, Maven metadata), all at once; a failing upstream
 * is reported for its repository and the others still answer.
 */
export async function searchRemotes(
  app: FastifyInstance,
  principal: Principal,
  term: string,
  only: string[] = [],
): Promise<RemoteSearchAnswer> {
  const readable = await readableRepositories(app.db, principal, { trash: false, rclass: 'remote' });
  const allowed = await allowedOutboundHosts(app.db, app.config.outboundAllowedHosts);
  const remotes = (await listRepositories(app.db)).filter(
    (r) =>
      r.rclass === 'remote' &&
      (readable.whole.includes(r.key) || readable.partial.has(r.key)) &&
      (!only.length || only.includes(r.key)) &&
      app.formatRegistry.for(r.package_type)?.searchUpstream,
  );
  const answers = await Promise.allSettled(
    remotes.map(async (repo) => {
      const base = repo.url.endsWith('/') ? repo.url : `${repo.url}/`;
      const hits = await app.formatRegistry.for(repo.package_type)!.searchUpstream!(term, (path, headers = {}) =>
        upstreamFetch(app.db, repo, new URL(path, base).toString(), {
          headers,
          allowed,
          credentials: true,
          timeouts: UPSTREAM_TIMEOUTS,
        }),
      );
      return hits
        .filter((hit) => canSee(readable, repo.key, hit.path))
        .map((hit) => ({ ...hit, repoKey: repo.key, packageType: repo.package_type }));
    }),
  );
  const result: RemoteSearchAnswer = { hits: [], errors: [] };
  answers.forEach((answer, index) => {
    if (answer.status === 'fulfilled') result.hits.push(...answer.value);
    else {
      const reason = answer.reason as Error;
      const cause = (reason as { cause?: Error }).cause;
      result.errors.push({
        repoKey: remotes[index]!.key,
        message: `${reason.message}${cause?.message ? ` (${cause.message})` : ''}`,
      });
    }
  });
  return result;
}
