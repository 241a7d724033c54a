import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TRASHCAN_REPO } from '@arca/contracts';
import { badRequest } from '../../core/errors.js';
import { downloadUri } from '../artifacts/artifacts.uris.js';
import { flushDownloads } from '../artifacts/artifacts.stats.js';
import { parseAql } from './aql.parser.js';
import { runQuery } from './aql.service.js';
import { SEARCHES } from './search.rest.js';

/** Most results a console search answers; past it the message says only the first are shown. */
export const SEARCH_RESULT_LIMIT = 500;

type Criteria = Record<string, unknown>;
type Body = Record<string, unknown>;

/** `selectedRepositories` as keys, whether sent as keys or as repository entries. */
function selected(body: Body): string[] {
  const list = Array.isArray(body.selectedRepositories) ? body.selectedRepositories : [];
  return list
    .map((r: unknown) =>
      typeof r === 'string' ? r : r && typeof r === 'object' ? String((r as { repoKey?: unknown }).repoKey ?? '') : '',
    )
    .filter(Boolean);
}

/** Spec §5: a name gets a trailing `*` when it has none. */
const withTrailingStar = (name: string) => (name.endsWith('*') ? name : `${name}*`);

const text = (body: Body, key: string) => (typeof body[key] === 'string' ? (body[key] as string).trim() : '');

function checksumCriteria(checksum: string): Criteria {
  const value = checksum.toLowerCase();
  const field = { 40: 'actual_sha1', 32: 'actual_md5', 64: 'sha256' }[value.length];
  if (!field || !/^[0-9a-f]+$/.test(value)) throw badRequest('Invalid Checksum Length');
  return { [field]: value };
}

/** The criteria of each console search (`POST /ui/artifactsearch/{type}`), from its body. */
const CONSOLE_SEARCHES: Record<string, (body: Body) => { criteria: Criteria; trash?: boolean }> = {
  quick(body) {
    const query = text(body, 'query');
    if (!query.replace(/[*?]/g, '')) throw badRequest('Type something to search for.');
    return { criteria: { name: { $match: withTrailingStar(query) } } };
  },
  checksum(body) {
    return { criteria: checksumCriteria(text(body, 'checksum')) };
  },
  property(body) {
    const pairs = Array.isArray(body.propertyKeyValues)
      ? (body.propertyKeyValues as { key?: unknown; values?: unknown }[])
      : [];
    const criteria = pairs
      .filter((p) => typeof p.key === 'string' && p.key)
      .map((p) => {
        const values = (Array.isArray(p.values) ? p.values : [p.values]).filter(
          (v): v is string => typeof v === 'string',
        );
        const key = `@${String(p.key)}`;
        if (!values.length) return { 'property.key': String(p.key) };
        return { $or: values.map((v) => ({ [key]: /[*?]/.test(v) ? { $match: v } : v })) };
      });
    if (!criteria.length) throw badRequest('Add at least one property to search for.');
    return { criteria: { $and: criteria } };
  },
  gavc(body) {
    return {
      criteria: SEARCHES.gavc!({
        g: text(body, 'groupID') || undefined,
        a: text(body, 'artifactID') || undefined,
        v: text(body, 'version') || undefined,
        c: text(body, 'classifier') || undefined,
      }),
    };
  },
  trash(body) {
    const query = text(body, 'query');
    if (body.isChecksum === true) return { criteria: checksumCriteria(query), trash: true };
    if (!query.replace(/[*?]/g, '')) throw badRequest('Type something to search for.');
    return { criteria: { name: { $match: withTrailingStar(query) } }, trash: true };
  },
};

async function consoleSearch(request: FastifyRequest, type: string) {
  const body = (request.body ?? {}) as Body;
  const { criteria, trash } = CONSOLE_SEARCHES[type]!(body);
  const repos = trash ? [TRASHCAN_REPO] : selected(body);
  const find = repos.length ? { $and: [criteria, { $or: repos.map((repo) => ({ repo })) }] } : criteria;
  const answer = await runQuery(
    request.server.db,
    request.principal,
    parseAql(`items.find(${JSON.stringify(find)}).include("*").limit(${SEARCH_RESULT_LIMIT})`),
  );
  const base = `${request.protocol}://${request.host}`;
  const total = answer.range.total;
  return {
    results: answer.results.map((r) => {
      const relativePath = r.path === '.' ? String(r.name) : `${String(r.path)}/${String(r.name)}`;
      return {
        name: r.name,
        path: r.path === '.' ? '' : r.path,
        relativePath,
        repoKey: r.repo,
        size: r.size,
        created: r.created,
        modifiedDate: r.modified,
        modifiedBy: r.modified_by,
        sha256: r.sha256,
        downloadLink: downloadUri(base, String(r.repo), relativePath),
      };
    }),
    limitSearchResults: total > SEARCH_RESULT_LIMIT,
    searchResultsMessage:
      total > SEARCH_RESULT_LIMIT ? `Showing first ${SEARCH_RESULT_LIMIT} matches found` : `${total} item(s)`,
  };
}

/** The console's artifact searches: quick, checksum, property, Maven GAVC and the trash can. */
export async function searchConsoleRoutes(app: FastifyInstance): Promise<void> {
  for (const type of Object.keys(CONSOLE_SEARCHES)) {
    app.post(`/ui/artifactsearch/${type}`, { config: { access: 'public' } }, async (request) => {
      await flushDownloads(app.db);
      return consoleSearch(request, type);
    });
  }
}
