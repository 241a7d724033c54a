import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PACKAGE_SEARCH_TYPES, SEARCH_MESSAGES, SEARCH_RESULT_LIMIT, TRASHCAN_REPO } from '@arca/contracts';
import { badRequest, notFound } from '../../core/errors.js';
import { repoContent, downloadUri, flushDownloads } from '../artifacts/index.js';
import { readableRepositories, runQuery } from './aql.service.js';
import { searchClasses } from './search.classes.js';
import { packageSearchType, searchPackages, type PackageCriterion } from './search.packages.js';
import { searchRemotes } from './search.remote.js';
import { parseAql } from './aql.parser.js';
import { SEARCHES } from './search.rest.js';
import { baseUrlOf } from '../../core/base-url.js';

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
  if (!field || !/^[0-9a-f]+$/.test(value)) throw badRequest(SEARCH_MESSAGES.invalidChecksum);
  return { [field]: value };
}

/** The criteria of each console search (`POST /ui/artifactsearch/{type}`), from its body. */
const CONSOLE_SEARCHES: Record<string, (body: Body) => { criteria: Criteria; trash?: boolean }> = {
  quick(body) {
    const query = text(body, 'query');
    if (!query.replace(/[*?]/g, '')) throw badRequest(SEARCH_MESSAGES.emptyQuery);
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
    if (!criteria.length) throw badRequest(SEARCH_MESSAGES.noProperty);
    return { criteria: { $and: criteria } };
  },
  gavc(body) {
    if (!['groupID', 'artifactID', 'version', 'classifier'].some((k) => text(body, k))) {
      throw badRequest(SEARCH_MESSAGES.noCoordinates);
    }
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
    if (!query.replace(/[*?]/g, '')) throw badRequest(SEARCH_MESSAGES.emptyQuery);
    return { criteria: { name: { $match: withTrailingStar(query) } }, trash: true };
  },
};

async function consoleSearch(request: FastifyRequest, type: string) {
  const body = (request.body ?? {}) as Body;
  const { criteria, trash } = CONSOLE_SEARCHES[type]!(body);
  const repos = trash ? [TRASHCAN_REPO] : selected(body);
  const find = repos.length ? { $and: [criteria, { $or: repos.map((repo) => ({ repo })) }] } : criteria;
  // one more than shown: whether there are more is all the message needs to know
  const answer = await runQuery(
    request.server.db,
    request.principal,
    parseAql(`items.find(${JSON.stringify(find)}).include("*").limit(${SEARCH_RESULT_LIMIT + 1})`),
    { trash: trash === true },
  );
  const base = baseUrl(request);
  return limited(
    answer.results.map((r) => {
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
  );
}

const baseUrl = (request: FastifyRequest) => baseUrlOf(request);

/** The answer of a console search: at most the limit, and the spec's message (results hold one more than shown when there are more). */
function limited<T>(results: T[], extra: Record<string, unknown> = {}) {
  const more = results.length > SEARCH_RESULT_LIMIT;
  return {
    results: results.slice(0, SEARCH_RESULT_LIMIT),
    limitSearchResults: more,
    searchResultsMessage: more
      ? SEARCH_MESSAGES.firstMatches(SEARCH_RESULT_LIMIT)
      : SEARCH_MESSAGES.items(results.length),
    ...extra,
  };
}

const bool = (value: unknown) => value === true || value === 'true';

/** `POST /ui/artifactsearch/class`: Java classes inside deployed jar, war and ear archives. */
async function classSearch(request: FastifyRequest) {
  const body = (request.body ?? {}) as Body;
  const name = text(body, 'name');
  // a bare '*' is fine within a package
  if (!`${name}${text(body, 'path')}`.replace(/[*?]/g, '')) throw badRequest(SEARCH_MESSAGES.noClass);
  const hits = await searchClasses(request.server.db, request.principal, {
    name,
    path: text(body, 'path') || undefined,
    excludeInnerClasses: bool(body.excludeInnerClasses),
    searchClassOnly: bool(body.searchClassOnly),
    repos: selected(body),
    limit: SEARCH_RESULT_LIMIT + 1,
  });
  const base = baseUrl(request);
  return limited(
    hits.map((hit) => ({
      name: hit.className,
      classPath: hit.classPath,
      innerClass: hit.innerClass,
      archiveName: hit.archiveName,
      archivePath: hit.archivePath,
      relativePath: hit.archivePath,
      path: hit.archivePath.includes('/') ? hit.archivePath.slice(0, hit.archivePath.lastIndexOf('/')) : '',
      repoKey: hit.repoKey,
      size: hit.size,
      modifiedDate: new Date(hit.modifiedAt).toISOString(),
      downloadLink: downloadUri(base, hit.repoKey, hit.archivePath),
    })),
  );
}

/** The criteria of a package search: `[{id, values}]`, as the body itself or under `search`. */
function packageCriteria(body: unknown): PackageCriterion[] {
  const list = Array.isArray(body) ? body : Array.isArray((body as Body)?.search) ? (body as Body).search : undefined;
  if (!Array.isArray(list)) throw badRequest(SEARCH_MESSAGES.invalidParams);
  return list.map((entry: unknown) => {
    const { id, values } = (entry ?? {}) as { id?: unknown; values?: unknown };
    if (typeof id !== 'string') throw badRequest(SEARCH_MESSAGES.invalidParams);
    const list = (Array.isArray(values) ? values : [values]).filter((v): v is string => typeof v === 'string');
    return { id, values: list };
  });
}

/** `POST /ui/artifactsearch/pkg`: packages of the catalogue by their type's fields; extra fields as `extraField_{key}`. */
async function packageSearch(request: FastifyRequest) {
  const hits = await searchPackages(
    request.server.db,
    request.principal,
    packageCriteria(request.body),
    SEARCH_RESULT_LIMIT + 1,
  );
  return limited(
    hits.map((hit) => ({
      name: hit.name,
      version: hit.version,
      packageType: hit.packageType,
      repoKey: hit.repoKey,
      relativePath: hit.path,
      path: hit.path.includes('/') ? hit.path.slice(0, hit.path.lastIndexOf('/')) : '',
      description: hit.description,
      modifiedDate: new Date(hit.modifiedAt).toISOString(),
      ...Object.fromEntries(Object.entries(hit.extraFields).map(([k, v]) => [`extraField_${k}`, v])),
    })),
  );
}

/** `POST /ui/artifactsearch/remote`: the upstream indexes of remote repositories, failures per repository. */
async function remoteSearch(request: FastifyRequest) {
  const body = (request.body ?? {}) as Body;
  const key = text(body, 'searchKey');
  // spec §5 appends a trailing '*'; upstream indexes match parts of names, so the wildcards go
  const term = withTrailingStar(key).replace(/[*?]/g, ' ').trim();
  if (!term) throw badRequest(SEARCH_MESSAGES.emptyQuery);
  const { hits, errors } = await searchRemotes(request.server, request.principal, term, selected(body));
  const base = baseUrl(request);
  return limited(
    hits.map((hit) => ({
      name: hit.name,
      version: hit.version,
      description: hit.description ?? '',
      packageType: hit.packageType,
      repoKey: hit.repoKey,
      relativePath: hit.path,
      path: hit.path.includes('/') ? hit.path.slice(0, hit.path.lastIndexOf('/')) : '',
      downloadLink: downloadUri(base, hit.repoKey, hit.path),
    })),
    { errors },
  );
}

/** `GET /ui/artifactsearch/property/keyvalue`: the property keys (and their values) of what the caller may read whole. */
async function propertyKeyValues(request: FastifyRequest) {
  const { db } = request.server;
  const { whole } = await readableRepositories(db, request.principal, { trash: false });
  if (!whole.length) return [];
  const rows = await db
    .selectFrom('item_properties as p')
    .innerJoin('items as i', 'i.id', 'p.item_id')
    .select(['p.key', 'p.value'])
    .distinct()
    .where('i.repo_key', 'in', whole)
    .orderBy('p.key')
    .orderBy('p.value')
    .limit(5000)
    .execute();
  const byKey = new Map<string, string[]>();
  for (const { key, value } of rows) {
    const values = byKey.get(key) ?? [];
    if (values.length < 100) values.push(value);
    byKey.set(key, values);
  }
  return [...byKey].map(([key, values]) => ({ key, values }));
}

/** `POST /ui/artifactsearch/deleteArtifact {artifacts: [{repoKey, path}]}`: each to the trash can, rights checked per item. */
async function deleteArtifacts(request: FastifyRequest) {
  const list = ((request.body ?? {}) as Body).artifacts;
  if (!Array.isArray(list) || !list.length) throw badRequest(SEARCH_MESSAGES.invalidParams);
  const targets = list.map((entry: unknown) => {
    const { repoKey, path, relativePath } = (entry ?? {}) as Record<string, unknown>;
    const where = typeof relativePath === 'string' ? relativePath : path;
    if (typeof repoKey !== 'string' || typeof where !== 'string' || !where)
      throw badRequest(SEARCH_MESSAGES.invalidParams);
    return { repoKey, path: where.replace(/^\/+/, '') };
  });
  const content = repoContent(request);
  const errors: { repoKey: string; path: string; message: string }[] = [];
  let deleted = 0;
  let firstRefusal: unknown;
  for (const target of targets) {
    try {
      await content.remove(target.repoKey, target.path);
      deleted++;
    } catch (error) {
      firstRefusal ??= error;
      errors.push({ ...target, message: (error as Error).message });
    }
  }
  // nothing deleted: the first refusal is the answer (403, 404 …), as for a single delete
  if (!deleted && firstRefusal) throw firstRefusal;
  return { info: SEARCH_MESSAGES.deleted(deleted), errors };
}

/**
 * The console's artifact searches (quick, checksum, property, GAVC, trash, class, package,
 * remote), the reference data they need, and the delete of results.
 */
export const searchConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const type of Object.keys(CONSOLE_SEARCHES)) {
    app.post(`/ui/artifactsearch/${type}`, { config: { access: 'public' } }, async (request) => {
      await flushDownloads(app.db);
      return consoleSearch(request, type);
    });
  }
  app.post('/ui/artifactsearch/class', { config: { access: 'public' } }, classSearch);
  app.post('/ui/artifactsearch/pkg', { config: { access: 'public' } }, packageSearch);
  app.post('/ui/artifactsearch/remote', { config: { access: 'public' } }, remoteSearch);
  app.get('/ui/artifactsearch/pkg/availablePackages', { config: { access: 'public' } }, async () =>
    PACKAGE_SEARCH_TYPES.map(({ id, displayName, types }) => ({ id, displayName, packageTypes: types })),
  );
  app.get(
    '/ui/artifactsearch/pkg/:packageType',
    { config: { access: 'public' }, schema: { params: z.object({ packageType: z.string().max(64) }) } },
    async (request) => {
      const type = packageSearchType(request.params.packageType);
      if (!type) throw notFound('Unknown package type.');
      return type.fields.map(({ source: _source, ...field }) => field);
    },
  );
  app.get('/ui/artifactsearch/property/keyvalue', { config: { access: 'public' } }, propertyKeyValues);
  app.post('/ui/artifactsearch/deleteArtifact', { config: { access: 'user' } }, deleteArtifacts);
};
