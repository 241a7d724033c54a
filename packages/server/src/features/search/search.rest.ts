import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../core/errors.js';
import { downloadUri, storageUri } from '../artifacts/index.js';
import { parseAql } from './aql.parser.js';
import { runQuery } from './aql.service.js';
import { baseUrlOf } from '../../core/base-url.js';

type Criteria = Record<string, unknown>;
type Query = Record<string, string | undefined>;

const repos = (query: Query): Criteria[] =>
  (query.repos ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean)
    .map((repo) => ({ repo }));

const millis = (query: Query, key: string, required = false): number | undefined => {
  const raw = query[key];
  if (raw === undefined || raw === '') {
    if (required) throw badRequest(`The ${key} parameter is required (milliseconds since the epoch).`);
    return undefined;
  }
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw badRequest(`${key} is milliseconds since the epoch.`);
  return value;
};

/** `from`/`to` (epoch ms) as a range criterion on one date field. */
function range(field: string, query: Query): Criteria {
  const from = millis(query, 'from');
  const to = millis(query, 'to');
  const bounds: Criteria = {};
  if (from !== undefined) bounds.$gte = from;
  if (to !== undefined) bounds.$lte = to;
  return Object.keys(bounds).length ? { [field]: bounds } : { [field]: { $gte: 0 } };
}

const DATE_FIELDS: Record<string, string> = {
  created: 'created',
  lastModified: 'modified',
  lastDownloaded: 'stat.downloaded',
};

/** The criteria of each search Artifactory's REST API names, as AQL. */
export const SEARCHES: Record<string, (query: Query) => Criteria> = {
  /** `?from=&to=` (epoch ms) on the creation date. */
  creation(query) {
    if (query.from === undefined && query.to === undefined) throw badRequest('The from parameter is required.');
    return range('created', query);
  },
  /** `?dateFields=created,lastModified,lastDownloaded&from=&to=`: any of the fields in the range. */
  dates(query) {
    const fields = (query.dateFields ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    if (!fields.length)
      throw badRequest('The dateFields parameter is required: created, lastModified, lastDownloaded.');
    const unknown = fields.find((f) => !(f in DATE_FIELDS));
    if (unknown) throw badRequest(`Unknown date field '${unknown}': created, lastModified, lastDownloaded.`);
    return { $or: fields.map((f) => range(DATE_FIELDS[f]!, query)) };
  },
  /** `?notUsedSince=` (and `createdBefore=`): not downloaded since then, never downloaded included. */
  usage(query) {
    const since = millis(query, 'notUsedSince', true)!;
    const createdBefore = millis(query, 'createdBefore') ?? since;
    return {
      created: { $lt: createdBefore },
      $or: [{ 'stat.downloaded': { $lt: since } }, { 'stat.downloaded': null }],
    };
  },
  /** `?name=` with `*` and `?` wildcards. */
  artifact(query) {
    if (!query.name) throw badRequest('The name parameter is required.');
    return { name: { $match: query.name } };
  },
  /** `?md5=`, `?sha1=` or `?sha256=`. */
  checksum(query) {
    const criteria: Criteria = {};
    if (query.sha256) criteria.sha256 = query.sha256.toLowerCase();
    if (query.sha1) criteria.actual_sha1 = query.sha1.toLowerCase();
    if (query.md5) criteria.actual_md5 = query.md5.toLowerCase();
    if (!Object.keys(criteria).length) throw badRequest('One of the md5, sha1 or sha256 parameters is required.');
    return criteria;
  },
  /** `?key=value1,value2&other=value` (any listed value of each key). */
  prop(query) {
    const criteria = Object.entries(query)
      .filter(([key]) => key !== 'repos')
      .map(([key, value]) => ({ $or: (value ?? '').split(',').map((v) => ({ [`@${key}`]: v })) }));
    if (!criteria.length) throw badRequest('At least one property is required, as key=value.');
    return { $and: criteria };
  },
  /** `?g=&a=&v=&c=` (Maven coordinates; any may be left out). */
  gavc(query) {
    if (!query.g && !query.a && !query.v && !query.c) throw badRequest('At least one of g, a, v and c is required.');
    const group = query.g ? query.g.replaceAll('.', '/') : '*';
    return {
      path: { $match: `${group}/${query.a ?? '*'}/${query.v ?? '*'}` },
      name: { $match: `${query.a ?? '*'}-${query.v ?? '*'}${query.c ? `-${query.c}` : ''}*` },
    };
  },
};

/**
 * Runs one of Artifactory's REST searches and answers its shape: `{results: [{uri}]}`, with the
 * storage fields when `X-Result-Detail` names `info` and the properties when it names `properties`.
 */
export async function restSearch(request: FastifyRequest, kind: string, query: Query) {
  const criteria = SEARCHES[kind]!(query);
  const scope = repos(query);
  const find = scope.length ? { $and: [criteria, { $or: scope }] } : criteria;
  const detail = String(request.headers['x-result-detail'] ?? '').toLowerCase();
  const info = detail.includes('info');
  const properties = detail.includes('properties');
  const include = ['"*"', '"stat"', ...(properties ? ['"property"'] : [])].join(',');
  const answer = await runQuery(
    request.server.db,
    request.principal,
    parseAql(`items.find(${JSON.stringify(find)}).include(${include}).limit(10000)`),
    { trash: false },
  );
  const base = baseUrlOf(request);
  return {
    results: answer.results.map((shaped) => {
      const stats = (shaped.stats as { downloaded?: string }[] | undefined)?.[0];
      const r: Record<string, unknown> = { ...shaped, downloaded: stats?.downloaded };
      const path = r.path === '.' ? String(r.name) : `${String(r.path)}/${String(r.name)}`;
      const result: Record<string, unknown> = { uri: storageUri(base, String(r.repo), path) };
      if (kind === 'creation' || kind === 'dates') result.created = r.created;
      if (kind === 'dates') {
        result.lastModified = r.modified;
        result.lastDownloaded = r.downloaded ?? null;
      }
      if (kind === 'usage') result.lastDownloaded = r.downloaded ?? null;
      if (info) {
        Object.assign(result, {
          repo: r.repo,
          path: `/${path}`,
          created: r.created,
          createdBy: r.created_by,
          lastModified: r.modified,
          modifiedBy: r.modified_by,
          lastUpdated: r.updated,
          downloadUri: downloadUri(base, String(r.repo), path),
          size: String(r.size),
          checksums: { sha1: r.actual_sha1, md5: r.actual_md5, sha256: r.sha256 },
        });
      }
      if (properties) {
        const map: Record<string, string[]> = {};
        for (const p of (r.properties as { key: string; value: string }[] | undefined) ?? [])
          (map[p.key] ??= []).push(p.value);
        result.properties = map;
      }
      return result;
    }),
  };
}
