import { BUILD_INFO_REPO } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import { isAllowed } from '../../core/permissions.js';
import type { Principal } from '../../core/principals.js';
import { relationField } from './aql.compile.js';
import { AqlError, type AqlNode, type AqlQuery } from './aql.parser.js';

/**
 * AQL's relation of items and builds: an item is an artifact (or a dependency) of a build when
 * its SHA-1 is the one the build's document lists. Criteria across it are compiled with the rest
 * (`aql.compile.ts`); this module reads what `.include()` asks across it, and what a caller may
 * reach across it (only builds it may read, only items of repositories it may read whole).
 */

/** Whether criteria use the relation anywhere. */
export function mentionsRelation(node: AqlNode, domain: 'items' | 'builds'): boolean {
  if (node.kind === 'object')
    return node.entries.some((e) => relationField(domain, e.key) !== undefined || mentionsRelation(e.value, domain));
  if (node.kind === 'array') return node.items.some((item) => mentionsRelation(item, domain));
  return false;
}

/** Build names the caller may read (the build resources of permission targets). */
export async function readableBuildNames(db: Db, principal: Principal): Promise<string[]> {
  const names = await db.selectFrom('builds').select('name').distinct().execute();
  const readable: string[] = [];
  for (const { name } of names)
    if (await isAllowed(db, principal, 'read', BUILD_INFO_REPO, `${encodeURIComponent(name)}/x`)) readable.push(name);
  return readable;
}

const BUILD_INCLUDE = ['name', 'number', 'started', 'created', 'created_by'] as const;
const ITEM_INCLUDE = ['repo', 'path', 'name', 'size', 'sha256'] as const;

/** What an items query's `include` asks of the builds its items belong to, by kind of build file. */
export function buildIncludes(query: AqlQuery): Map<'artifact' | 'dependency', string[]> {
  const wanted = new Map<'artifact' | 'dependency', string[]>();
  for (const { field, position } of query.include) {
    const match = /^(artifact|dependency)\.module\.build\.(.+)$/.exec(field);
    if (!match) continue;
    if (!(BUILD_INCLUDE as readonly string[]).includes(match[2]!))
      throw new AqlError(`Unknown field '${field}' in include()`, position);
    const kind = match[1] as 'artifact' | 'dependency';
    wanted.set(kind, [...(wanted.get(kind) ?? []), match[2]!]);
  }
  return wanted;
}

/** What a builds query's `include` asks of the stored items of its files, by kind of build file. */
export function itemIncludes(query: AqlQuery): Map<'artifact' | 'dependency', string[]> {
  const wanted = new Map<'artifact' | 'dependency', string[]>();
  for (const { field, position } of query.include) {
    const match = /^module\.(artifact|dependency)\.item\.(.+)$/.exec(field);
    if (!match) continue;
    if (!(ITEM_INCLUDE as readonly string[]).includes(match[2]!))
      throw new AqlError(`Unknown field '${field}' in include()`, position);
    const kind = match[1] as 'artifact' | 'dependency';
    wanted.set(kind, [...(wanted.get(kind) ?? []), match[2]!]);
  }
  return wanted;
}

const iso = (ms: number) => new Date(Number(ms)).toISOString();

/**
 * Adds to each item's result the builds it is an artifact (`artifacts`) or a dependency
 * (`dependencies`) of, in Artifactory's nesting: `[{modules: [{builds: [{"build.name": …}]}]}]`.
 */
export async function attachBuilds(
  db: Db,
  rows: { sha1: string | null }[],
  results: Record<string, unknown>[],
  wanted: Map<'artifact' | 'dependency', string[]>,
  builds: readonly string[],
): Promise<void> {
  const sha1s = [...new Set(rows.map((r) => r.sha1).filter((s): s is string => Boolean(s)))];
  for (const [kind, fields] of wanted) {
    const found =
      sha1s.length && builds.length
        ? await db
            .selectFrom('build_files as f')
            .innerJoin('builds as bu', 'bu.id', 'f.build_id')
            .select(['f.sha1', 'f.module', 'bu.name', 'bu.number', 'bu.started', 'bu.created_at', 'bu.created_by'])
            .where('f.kind', '=', kind)
            .where('f.sha1', 'in', sha1s)
            .where('bu.name', 'in', [...builds])
            .orderBy('bu.name')
            .orderBy('bu.started_at', 'desc')
            .execute()
        : [];
    rows.forEach((row, index) => {
      const modules = new Map<string, Record<string, unknown>[]>();
      for (const f of found.filter((f) => f.sha1 === row.sha1)) {
        const all: Record<string, unknown> = {
          'build.name': f.name,
          'build.number': f.number,
          'build.started': f.started,
          'build.created': iso(f.created_at),
          'build.created_by': f.created_by,
        };
        const build = Object.fromEntries(fields.map((field) => [`build.${field}`, all[`build.${field}`]]));
        modules.set(f.module, [...(modules.get(f.module) ?? []), build]);
      }
      results[index]![kind === 'artifact' ? 'artifacts' : 'dependencies'] = modules.size
        ? [{ modules: [...modules.values()].map((builds) => ({ builds })) }]
        : [];
    });
  }
}

/**
 * Adds to each build's result the stored items of its artifacts and dependencies, in
 * Artifactory's nesting: `modules: [{artifacts: [{items: [{repo, path, name}]}]}]` — only
 * items of repositories the caller may read whole.
 */
export async function attachItems(
  db: Db,
  rows: { id: string }[],
  results: Record<string, unknown>[],
  wanted: Map<'artifact' | 'dependency', string[]>,
  repositories: readonly string[],
): Promise<void> {
  if (!wanted.size) return;
  const ids = rows.map((r) => r.id);
  const found =
    ids.length && repositories.length
      ? await db
          .selectFrom('build_files as f')
          .innerJoin('binaries as bb', 'bb.sha1', 'f.sha1')
          .innerJoin('items as it', 'it.sha256', 'bb.sha256')
          .select(['f.build_id', 'f.kind', 'f.module', 'it.repo_key', 'it.parent', 'it.name', 'it.size', 'it.sha256'])
          .where('f.build_id', 'in', ids)
          .where('f.kind', 'in', [...wanted.keys()])
          .where('it.repo_key', 'in', [...repositories])
          .where('it.folder', '=', 0)
          .orderBy('it.repo_key')
          .orderBy('it.parent')
          .orderBy('it.name')
          .execute()
      : [];
  rows.forEach((row, index) => {
    const modules = new Map<string, Record<string, Record<string, unknown>[]>>();
    for (const f of found.filter((f) => f.build_id === row.id)) {
      const all: Record<string, unknown> = {
        repo: f.repo_key,
        path: f.parent || '.',
        name: f.name,
        size: Number(f.size),
        sha256: f.sha256,
      };
      const kind = f.kind as 'artifact' | 'dependency';
      const item = Object.fromEntries(wanted.get(kind)!.map((field) => [field, all[field]]));
      const module = modules.get(f.module) ?? {};
      const list = kind === 'artifact' ? 'artifacts' : 'dependencies';
      module[list] = [...(module[list] ?? []), item];
      modules.set(f.module, module);
    }
    results[index]!.modules = [...modules.values()].map((module) => ({
      ...(module.artifacts ? { artifacts: [{ items: module.artifacts }] } : {}),
      ...(module.dependencies ? { dependencies: [{ items: module.dependencies }] } : {}),
    }));
  });
}
