import { sql, type Expression, type SqlBool } from 'kysely';
import {
  PACKAGE_SEARCH_MIN_CHARS,
  PACKAGE_SEARCH_TYPES,
  SEARCH_MESSAGES,
  type PackageSearchField,
} from '@arca/contracts';
import { isPostgres, type Db } from '../../db/database.js';
import type { Principal } from '../../core/principals.js';
import { badRequest } from '../../core/errors.js';
import { wildcard } from './aql.compile.js';
import { canSee, readableRepositories } from './aql.service.js';

/** Most catalogue rows read when rights stop at paths and must be checked row by row. */
const MAX_FILTERED_ROWS = 100_000;

/** One criterion of a package search: a field of the type (or `pkgType`, `repo`) and the values any of which matches. */
export interface PackageCriterion {
  id: string;
  values: string[];
}

export interface PackageHit {
  packageType: string;
  name: string;
  version: string;
  repoKey: string;
  path: string;
  description: string;
  modifiedAt: number;
  extraFields: Record<string, string>;
}

/** Spec §5: a value gets a trailing `*` (values starting or ending with `*` are wildcard matches). */
const asPattern = (value: string) => (value.endsWith('*') ? value : `${value}*`);

/** The definition of a package search type; 'All' (any case) is every type. */
export function packageSearchType(id: string) {
  const key = id.trim().toLowerCase() === '*' ? 'all' : id.trim().toLowerCase();
  return PACKAGE_SEARCH_TYPES.find((t) => t.id === key || t.types.includes(key));
}

/**
 * Packages of the catalogue whose fields match: each criterion's values are alternatives, the
 * criteria all apply; names are compared lowercased, the other fields case-insensitively too.
 */
export async function searchPackages(
  db: Db,
  principal: Principal,
  criteria: PackageCriterion[],
  limit: number,
): Promise<PackageHit[]> {
  const typeValue = criteria.find((c) => c.id === 'pkgType')?.values[0] ?? 'all';
  const type = packageSearchType(typeValue);
  if (!type) throw badRequest(`Unknown package type '${typeValue}'.`);
  const repoFilter = criteria.find((c) => c.id === 'repo')?.values.filter(Boolean) ?? [];
  const fieldCriteria = criteria
    .filter((c) => c.id !== 'pkgType' && c.id !== 'repo')
    .map((c) => {
      const definition = type.fields.find((f) => f.id === c.id);
      if (!definition) throw badRequest(`Unknown field '${c.id}' of ${type.displayName} packages.`);
      return { definition, values: c.values.map((v) => v.trim()).filter(Boolean) };
    })
    .filter((c) => c.values.length);
  const significant = fieldCriteria
    .flatMap((c) => c.values)
    .join('')
    .replace(/[*?]/g, '');
  if (significant.length < PACKAGE_SEARCH_MIN_CHARS) throw badRequest(SEARCH_MESSAGES.packageTooShort);

  const readable = await readableRepositories(db, principal, { trash: false });
  let repos = [...readable.whole, ...readable.partial.keys()];
  if (repoFilter.length) repos = repos.filter((r) => repoFilter.includes(r));
  if (!repos.length) return [];

  const postgres = isPostgres(db);
  const column = (source: PackageSearchField['source']): Expression<unknown> => {
    if (source === 'name') return sql.ref('v.lowercase_name');
    if (source === 'version') return sql`lower(v.version)`;
    if (source === 'description') return sql`lower(v.description)`;
    if (source === 'tags') return sql`lower(v.tags)`;
    const key = source.slice('fields.'.length);
    return postgres ? sql`lower(cast(v.fields as json) ->> ${key})` : sql`lower(json_extract(v.fields, ${`$.${key}`}))`;
  };
  let select = db.selectFrom('package_versions as v').selectAll('v').where('v.repo_key', 'in', repos);
  if (type.types.length) select = select.where('v.package_type', 'in', type.types);
  for (const { definition, values } of fieldCriteria) {
    select = select.where((eb) =>
      eb.or(
        values.map((value): Expression<SqlBool> => {
          // tags are a JSON list: a keyword matches anywhere in it
          const pattern =
            definition.source === 'tags' ? `*"${asPattern(value.toLowerCase())}"*` : asPattern(value.toLowerCase());
          return wildcard(column(definition.source), pattern, postgres);
        }),
      ),
    );
  }
  const rows = await select
    .orderBy('v.lowercase_name')
    .orderBy('v.repo_key')
    .orderBy('v.version', 'desc')
    .limit(readable.partial.size ? MAX_FILTERED_ROWS : limit)
    .execute();
  // a version is found once, however many lead files it has (a snapshot's timestamped POMs)
  const seen = new Set<string>();
  return rows
    .filter((r) => canSee(readable, r.repo_key, r.lead_path))
    .filter((r) => {
      const key = `${r.repo_key}\n${r.package_type}\n${r.name}\n${r.version}`;
      return !seen.has(key) && seen.add(key);
    })
    .slice(0, limit)
    .map((r) => {
      const fields = JSON.parse(r.fields || '{}') as Record<string, string | string[]>;
      return {
        packageType: r.package_type,
        name: r.name,
        version: r.version,
        repoKey: r.repo_key,
        path: r.lead_path,
        description: r.description,
        modifiedAt: Number(r.modified_at),
        extraFields: Object.fromEntries(
          Object.entries(fields).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
        ),
      };
    });
}
