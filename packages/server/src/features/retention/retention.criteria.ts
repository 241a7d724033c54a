import { sql } from 'kysely';
import { RETENTION_MESSAGES, type Age, type CriteriaGroup, type SearchCriteriaForm } from '@arca/contracts';
import { isPostgres, type Db } from '../../db/database.js';
import { badRequest } from '../../core/errors.js';
import { notHeld } from '../artifacts/index.js';
import { listRepositories } from '../repositories/index.js';
import { AqlError, compileCriteria, parseAql, pinsOneRepository } from '../search/index.js';

/*
 * What a policy takes: its form converted to AQL (one way), and AQL compiled to the query over
 * repository files that both the preview and the run use — so that a run never takes what the
 * preview would not list.
 */

type Criterion = Record<string, unknown>;

const AGE_SUFFIX: Record<Age['unit'], string> = { days: 'd', weeks: 'w', months: 'mo', years: 'y' };
const ageText = (age: Age) => `${age.value}${AGE_SUFFIX[age.unit]}`;
const hasWildcard = (value: string) => /[*?]/.test(value);
const cleanPath = (value: string) => value.replace(/^\/+|\/+$/g, '');

/** A path names a folder and everything below it; with wildcards it is a pattern of folders. */
function pathIs(value: string): Criterion {
  const path = cleanPath(value);
  if (hasWildcard(path)) return { path: { $match: path } };
  return { $or: [{ path: { $eq: path } }, { path: { $match: `${path}/*` } }] };
}
function pathIsNot(value: string): Criterion {
  const path = cleanPath(value);
  if (hasWildcard(path)) return { path: { $nmatch: path } };
  return { $and: [{ path: { $ne: path } }, { path: { $nmatch: `${path}/*` } }] };
}
/** A property with this value, or (no value given) with any value. */
const propertyIs = ({ key, value }: { key: string; value: string }): Criterion =>
  value ? { [`@${key}`]: { $eq: value } } : { [`@${key}`]: { $match: '*' } };
const propertyIsNot = ({ key, value }: { key: string; value: string }): Criterion =>
  value ? { [`@${key}`]: { $ne: value } } : { [`@${key}`]: { $nmatch: '*' } };

const combine = (operator: 'and' | 'or', parts: Criterion[]): Criterion =>
  parts.length === 1 ? parts[0]! : { [`$${operator}`]: parts };

function others(group: CriteriaGroup, negated: boolean): Criterion[] {
  return [
    ...group.paths.map(negated ? pathIsNot : pathIs),
    ...group.names.map((name) => ({ name: { [negated ? '$nmatch' : '$match']: name } })),
    ...group.properties.map(negated ? propertyIsNot : propertyIs),
  ];
}

/**
 * The form as AQL: files of the included repositories (any of them) meeting the include group's
 * paths, names and properties (all or any, as its operator says); none of the excluded
 * repositories, and not meeting the exclude group's (all or any); deployed and not downloaded
 * since the ages given — a file never downloaded counts from its deployment.
 */
export function formToAql(form: SearchCriteriaForm): string {
  const { include, exclude } = form;
  const parts: Criterion[] = [];
  if (include.repositories.length)
    parts.push(
      combine(
        'or',
        include.repositories.map((repo) => ({ repo })),
      ),
    );
  const included = others(include, false);
  if (included.length) parts.push(combine(include.operator, included));
  for (const repo of exclude.repositories) parts.push({ repo: { $ne: repo } });
  const excluded = others(exclude, true);
  // not (a and b) = not a or not b; not (a or b) = not a and not b
  if (excluded.length) parts.push(combine(exclude.operator === 'and' ? 'or' : 'and', excluded));
  if (form.createdBefore) parts.push({ created: { $before: ageText(form.createdBefore) } });
  if (form.downloadedBefore) {
    const age = ageText(form.downloadedBefore);
    parts.push({
      $or: [
        { 'stat.downloaded': { $before: age } },
        { $and: [{ 'stat.downloaded': { $eq: null } }, { created: { $before: age } }] },
      ],
    });
  }
  parts.push({ type: 'file' });
  return `items.find(${JSON.stringify(combine('and', parts))})`;
}

/** Checks a form beyond its shape: at least one repository, every one of them local. */
export async function checkForm(db: Db, form: SearchCriteriaForm): Promise<void> {
  if (!form.include.repositories.length) throw badRequest(RETENTION_MESSAGES.repositoryMissing);
  const local = await localRepositoryKeys(db);
  for (const key of [...form.include.repositories, ...form.exclude.repositories]) {
    if (!local.includes(key)) throw badRequest(RETENTION_MESSAGES.repositoryUnknown.replace('{key}', key));
  }
}

export async function localRepositoryKeys(db: Db): Promise<string[]> {
  return (await listRepositories(db)).filter((r) => r.rclass === 'local').map((r) => r.key);
}

/** Parses a policy's AQL; a bad one answers 400 with the parser's message. */
export function parsePolicyAql(text: string) {
  try {
    const query = parseAql(text);
    if (query.domain !== 'items') throw new AqlError(RETENTION_MESSAGES.aqlDomain, -1);
    return query;
  } catch (error) {
    if (error instanceof AqlError) throw badRequest(error.message);
    throw error;
  }
}

/**
 * The files a policy's AQL takes: in local repositories only (never the trash can), compiled to
 * one parameterised query on `items as i` — its criteria only (`include`, `sort` and `limit`
 * say nothing of what a policy takes). `fewItems`: the caller narrows it to a few items by id.
 */
export async function matchingFiles(db: Db, aql: string, now = Date.now(), options: { fewItems?: boolean } = {}) {
  const query = parsePolicyAql(aql);
  const repositories = await localRepositoryKeys(db);
  const postgres = isPostgres(db);
  try {
    return (
      db
        .selectFrom('items as i')
        .leftJoin('binaries as b', 'b.sha256', 'i.sha256')
        .where('i.folder', '=', 0)
        .where('i.path', '!=', '')
        .where(repositories.length ? sql<boolean>`i.repo_key in (${sql.join(repositories)})` : sql<boolean>`1 = 0`)
        // a file a release bundle holds stays where it is: neither previewed nor taken
        .where(notHeld)
        .where((eb) =>
          compileCriteria(eb as never, query.criteria, {
            postgres,
            now,
            oneRepository: pinsOneRepository(query.criteria),
            readableBuilds: [],
            readableRepositories: [],
            // a run's batch checks its few items one by one rather than through the name index
            nameIndex: !options.fewItems,
          }),
        )
    );
  } catch (error) {
    if (error instanceof AqlError) throw badRequest(error.message);
    throw error;
  }
}
