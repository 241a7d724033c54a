import { sql } from 'kysely';
import { BUILD_INFO_REPO, TRASHCAN_REPO } from '@arca/contracts';
import { isPostgres, type Db } from '../../db/database.js';
import { isAllowed, readFilter, readScope, type ReadFilter } from '../../core/permissions.js';
import type { Principal } from '../../core/principals.js';
import { listRepositories, parseMembers } from '../repositories/index.js';
import {
  BUILD_FIELDS,
  ITEM_FIELDS,
  compileCriteria,
  mentionsType,
  pinsOneRepository,
  type ItemField,
} from './aql.compile.js';
import { AqlError, parseAql, type AqlQuery } from './aql.parser.js';
import {
  attachBuilds,
  attachItems,
  buildIncludes,
  itemIncludes,
  mentionsRelation,
  readableBuildNames,
} from './aql.relations.js';

/** Most rows a query reads when the caller's rights must be checked row by row. */
const MAX_FILTERED_ROWS = 100_000;
const DEFAULT_FIELDS = [
  'repo',
  'path',
  'name',
  'type',
  'size',
  'created',
  'created_by',
  'modified',
  'modified_by',
  'updated',
];
const ALL_FIELDS = [...DEFAULT_FIELDS, 'depth', 'sha256', 'actual_sha1', 'original_sha1', 'actual_md5', 'original_md5'];

export interface AqlAnswer {
  results: Record<string, unknown>[];
  range: { start_pos: number; end_pos: number; total: number; limit?: number };
}

interface Row {
  id: string;
  repo_key: string;
  parent: string;
  name: string;
  path: string;
  folder: number;
  size: number;
  created_at: number;
  created_by: string;
  modified_at: number;
  modified_by: string;
  sha256: string | null;
  download_count: number;
  last_downloaded: number | null;
  last_downloaded_by: string | null;
  sha1: string | null;
  md5: string | null;
}

/** The repositories a caller may search: whole ones, and those it may read only parts of (with their filter). */
export interface Readable {
  whole: string[];
  partial: Map<string, Exclude<ReadFilter, null>>;
}

/**
 * The local and remote repositories (caches) a caller may read, whole or in part; the trash can
 * too for those who may read all of it, unless `trash` says only it (true) or never it (false).
 */
export async function readableRepositories(
  db: Db,
  principal: Principal,
  { trash, rclass }: { trash?: boolean; rclass?: 'local' | 'remote' } = {},
): Promise<Readable> {
  const whole: string[] = [];
  const partial = new Map<string, Exclude<ReadFilter, null>>();
  for (const repo of trash ? [] : await listRepositories(db)) {
    if (repo.rclass === 'virtual' || (rclass && repo.rclass !== rclass)) continue;
    const scope = await readScope(db, principal, repo.key);
    if (scope.kind === 'all') whole.push(repo.key);
    else if (scope.sets.length) {
      const filter = await readFilter(db, principal, repo.key);
      if (filter) partial.set(repo.key, filter);
      else whole.push(repo.key);
    }
  }
  if (trash !== false && (await readScope(db, principal, TRASHCAN_REPO)).kind === 'all') whole.push(TRASHCAN_REPO);
  return { whole, partial };
}

/** Whether a readable scope lets the caller see a path. */
export function canSee(readable: Readable, repoKey: string, path: string, folder = false): boolean {
  if (readable.whole.includes(repoKey)) return true;
  const filter = readable.partial.get(repoKey);
  return filter ? filter(path, folder) : false;
}

/** Each virtual repository's reachable local and remote repositories (through nested virtual ones). */
async function reachedRepositories(db: Db): Promise<Map<string, string[]>> {
  const all = await listRepositories(db);
  const byKey = new Map(all.map((r) => [r.key, r]));
  const reach = (key: string, seen: Set<string>): string[] => {
    const repo = byKey.get(key);
    if (!repo || seen.has(key)) return [];
    seen.add(key);
    if (repo.rclass !== 'virtual') return [key];
    return parseMembers(repo).flatMap((member) => reach(member, seen));
  };
  return new Map(all.filter((r) => r.rclass === 'virtual').map((r) => [r.key, reach(r.key, new Set())]));
}

/** What `include` asks for: item fields, and whether properties and statistics come along. */
function plan(query: AqlQuery) {
  let fields = new Set<string>();
  let properties = false;
  let stats = false;
  for (const { field, position } of query.include) {
    if (field === '*') ALL_FIELDS.forEach((f) => fields.add(f));
    else if (field === 'property' || field.startsWith('property.')) properties = true;
    else if (field === 'stat' || field.startsWith('stat.')) stats = true;
    else if (/^(artifact|dependency)\.module\.build\./.test(field))
      continue; // see buildIncludes
    else if (ALL_FIELDS.includes(field)) fields.add(field);
    else throw new AqlError(`Unknown field '${field}' in include()`, position);
  }
  if (!fields.size) fields = new Set(DEFAULT_FIELDS);
  return { fields: ALL_FIELDS.filter((f) => fields.has(f)), properties, stats };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

function shape(row: Row, fields: string[]): Record<string, unknown> {
  const all: Record<string, unknown> = {
    repo: row.repo_key,
    path: row.parent || '.',
    name: row.name,
    type: row.folder === 1 ? 'folder' : 'file',
    size: Number(row.size),
    created: iso(row.created_at),
    created_by: row.created_by,
    modified: iso(row.modified_at),
    modified_by: row.modified_by,
    updated: iso(row.modified_at),
    depth: row.path.split('/').length,
    sha256: row.sha256,
    actual_sha1: row.sha1,
    original_sha1: row.sha1,
    actual_md5: row.md5,
    original_md5: row.md5,
  };
  return Object.fromEntries(fields.map((f) => [f, all[f]]));
}

/**
 * Runs an AQL query for a caller: over the repositories it may read (row by row where its rights
 * stop at paths), criteria compiled to parameterised SQL, then `include`, `sort`, `offset` and
 * `limit` as Artifactory answers them.
 */
export async function runAql(db: Db, principal: Principal, text: string, now = Date.now()): Promise<AqlAnswer> {
  return runQuery(db, principal, parseAql(text), { now });
}

/**
 * The builds domain: build runs the caller may read (the build resources of permission targets),
 * with Artifactory's `build.*` fields.
 */
async function runBuildsQuery(db: Db, principal: Principal, query: AqlQuery, now: number): Promise<AqlAnswer> {
  const postgres = isPostgres(db);
  const sortFields = (query.sort?.fields ?? []).map(({ field, position }) => {
    const name = field.replace(/^build\./, '');
    if (!(name in BUILD_FIELDS)) throw new AqlError(`Unknown sort field '${field}'`, position);
    return BUILD_FIELDS[name]!.column;
  });
  const items = itemIncludes(query);
  for (const { field, position } of query.include) {
    const name = field.replace(/^build\./, '');
    if (field !== '*' && !(name in BUILD_FIELDS) && !/^module\.(artifact|dependency)\.item\./.test(field))
      throw new AqlError(`Unknown field '${field}' in include()`, position);
  }
  // across the relation, a build reaches only items of repositories the caller may read whole
  const repositories =
    items.size || mentionsRelation(query.criteria, 'builds')
      ? (await readableRepositories(db, principal, { trash: false })).whole
      : [];
  let select = db
    .selectFrom('builds as i')
    .selectAll('i')
    .where((eb) =>
      compileCriteria(eb as never, query.criteria, {
        postgres,
        now,
        fields: BUILD_FIELDS,
        readableRepositories: repositories,
      }),
    );
  for (const column of sortFields) select = select.orderBy(sql.ref(column), query.sort!.direction);
  const rows = await select.orderBy('i.name').orderBy('i.started_at', 'desc').limit(MAX_FILTERED_ROWS).execute();
  const visible = [];
  for (const row of rows)
    if (await isAllowed(db, principal, 'read', BUILD_INFO_REPO, `${encodeURIComponent(row.name)}/x`)) visible.push(row);
  const offset = query.offset ?? 0;
  const page = visible.slice(offset, query.limit !== undefined ? offset + query.limit : undefined);
  const results: Record<string, unknown>[] = page.map((row) => ({
    'build.name': row.name,
    'build.number': row.number,
    'build.started': row.started,
    'build.created': iso(row.created_at),
    'build.created_by': row.created_by,
  }));
  await attachItems(db, page, results, items, repositories);
  return {
    results,
    range: {
      start_pos: offset,
      end_pos: offset + results.length,
      total: results.length,
      ...(query.limit !== undefined ? { limit: query.limit } : {}),
    },
  };
}

/** Runs a parsed query (the REST searches build theirs as AQL). */
export async function runQuery(
  db: Db,
  principal: Principal,
  query: AqlQuery,
  {
    now = Date.now(),
    trash,
  }: { now?: number; /** only the trash can (true), never it (false); default both */ trash?: boolean } = {},
): Promise<AqlAnswer> {
  if (query.domain === 'builds') return runBuildsQuery(db, principal, query, now);
  const wanted = plan(query);
  const sortFields = (query.sort?.fields ?? []).map(({ field, position }) => {
    if (!(field in ITEM_FIELDS)) throw new AqlError(`Unknown sort field '${field}'`, position);
    return ITEM_FIELDS[field as ItemField].column;
  });

  const { whole, partial } = await readableRepositories(db, principal, { trash });
  const repos = [...whole, ...partial.keys()];
  const limit = query.limit;
  const offset = query.offset ?? 0;
  if (!repos.length)
    return {
      results: [],
      range: { start_pos: offset, end_pos: offset, total: 0, ...(limit !== undefined ? { limit } : {}) },
    };

  const postgres = isPostgres(db);
  const virtualMembers = query.transitive ? await reachedRepositories(db) : undefined;
  const builds = buildIncludes(query);
  // across the relation, an item reaches only builds the caller may read
  const readableBuilds =
    builds.size || mentionsRelation(query.criteria, 'items') ? await readableBuildNames(db, principal) : [];
  let base = db
    .selectFrom('items as i')
    .leftJoin('binaries as b', 'b.sha256', 'i.sha256')
    .where('i.repo_key', 'in', repos)
    .where((eb) =>
      compileCriteria(eb as never, query.criteria, {
        postgres,
        now,
        virtualMembers,
        readableBuilds,
        oneRepository: !query.transitive && pinsOneRepository(query.criteria),
      }),
    );
  if (!mentionsType(query.criteria)) base = base.where('i.folder', '=', 0);
  // the root folder of each repository is no item of the answer
  base = base.where('i.path', '!=', '');

  let select = base.selectAll('i').select(['b.sha1', 'b.md5']);
  for (const column of sortFields) select = select.orderBy(sql.ref(column), query.sort!.direction);
  select = select.orderBy('i.repo_key').orderBy('i.parent').orderBy('i.name');

  let rows: Row[];
  if (!partial.size) {
    let page = select.limit(limit ?? Number.MAX_SAFE_INTEGER);
    if (offset) page = page.offset(offset);
    rows = (await page.execute()) as unknown as Row[];
  } else {
    const all = ((await select.limit(MAX_FILTERED_ROWS).execute()) as unknown as Row[]).filter((row) => {
      const filter = partial.get(row.repo_key);
      return !filter || filter(row.path, row.folder === 1);
    });
    rows = all.slice(offset, limit !== undefined ? offset + limit : undefined);
  }

  const results = rows.map((row) => shape(row, wanted.fields));
  await attachBuilds(db, rows, results, builds, readableBuilds);
  if ((wanted.properties || wanted.stats) && rows.length) {
    const byItem = new Map<string, { key: string; value: string }[]>();
    if (wanted.properties) {
      for (let i = 0; i < rows.length; i += 500) {
        const ids = rows.slice(i, i + 500).map((r) => r.id);
        for (const p of await db.selectFrom('item_properties').selectAll().where('item_id', 'in', ids).execute()) {
          byItem.set(p.item_id, [...(byItem.get(p.item_id) ?? []), { key: p.key, value: p.value }]);
        }
      }
    }
    rows.forEach((row, index) => {
      if (wanted.properties) results[index]!.properties = byItem.get(row.id) ?? [];
      if (wanted.stats)
        results[index]!.stats = [
          {
            downloads: Number(row.download_count ?? 0),
            ...(row.last_downloaded !== null ? { downloaded: iso(row.last_downloaded) } : {}),
            ...(row.last_downloaded_by ? { downloaded_by: row.last_downloaded_by } : {}),
          },
        ];
    });
  }
  // as Artifactory answers: `total` is the number of results of this page, not of the whole match
  return {
    results,
    range: {
      start_pos: offset,
      end_pos: offset + results.length,
      total: results.length,
      ...(limit !== undefined ? { limit } : {}),
    },
  };
}
