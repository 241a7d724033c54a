import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AqlError, type AqlNode, type AqlObject } from './aql.parser.js';

type Eb = ExpressionBuilder<Database & { i: Database['items']; b: Database['binaries'] }, 'i' | 'b'>;
type Condition = Expression<SqlBool>;

/** The items domain's fields, with the column each is compared on and the kind of its values. */
export const ITEM_FIELDS = {
  repo: { column: 'i.repo_key', kind: 'text' },
  path: { column: 'i.parent', kind: 'path' },
  name: { column: 'i.name', kind: 'text' },
  type: { column: 'i.folder', kind: 'type' },
  size: { column: 'i.size', kind: 'number' },
  created: { column: 'i.created_at', kind: 'date' },
  created_by: { column: 'i.created_by', kind: 'text' },
  modified: { column: 'i.modified_at', kind: 'date' },
  modified_by: { column: 'i.modified_by', kind: 'text' },
  updated: { column: 'i.modified_at', kind: 'date' },
  sha256: { column: 'i.sha256', kind: 'text' },
  actual_sha1: { column: 'b.sha1', kind: 'text' },
  original_sha1: { column: 'b.sha1', kind: 'text' },
  actual_md5: { column: 'b.md5', kind: 'text' },
  original_md5: { column: 'b.md5', kind: 'text' },
  'stat.downloads': { column: 'i.download_count', kind: 'number' },
  'stat.downloaded': { column: 'i.last_downloaded', kind: 'date' },
  'stat.downloaded_by': { column: 'i.last_downloaded_by', kind: 'text' },
} as const;
export type ItemField = keyof typeof ITEM_FIELDS;

type FieldSpecOf = { column: string; kind: 'text' | 'date' | 'number' | 'path' | 'type' };

/** The builds domain's fields (`build.` in front optional), compared on `builds as i`. */
export const BUILD_FIELDS: Record<string, FieldSpecOf> = {
  name: { column: 'i.name', kind: 'text' },
  number: { column: 'i.number', kind: 'text' },
  created: { column: 'i.created_at', kind: 'date' },
  created_by: { column: 'i.created_by', kind: 'text' },
  started: { column: 'i.started_at', kind: 'date' },
};

type FieldSpec = { column: string; kind: 'text' | 'date' | 'number' | 'path' | 'type' };

/** A build file's own fields (`artifact.name`, `module.dependency.type` …), on `build_files as f`. */
const BUILD_FILE_FIELDS: Record<string, FieldSpec> = {
  name: { column: 'f.name', kind: 'text' },
  type: { column: 'f.type', kind: 'text' },
  sha1: { column: 'f.sha1', kind: 'text' },
  sha256: { column: 'f.sha256', kind: 'text' },
  md5: { column: 'f.md5', kind: 'text' },
};
const MODULE_NAME: FieldSpec = { column: 'f.module', kind: 'text' };
/** The build of a build file, from an item's side (`artifact.module.build.name` …), on `builds as bu`. */
const BUILD_OF_FILE: Record<string, FieldSpec> = Object.fromEntries(
  Object.entries(BUILD_FIELDS).map(([name, spec]) => [name, { ...spec, column: spec.column.replace(/^i\./, 'bu.') }]),
);
/** The stored item of a build file, from a build's side (`module.artifact.item.repo` …), on `items as it`. */
const ITEM_OF_FILE: Record<string, FieldSpec> = Object.fromEntries(
  Object.entries(ITEM_FIELDS).map(([name, spec]) => [
    name,
    { ...spec, column: spec.column.replace(/^i\./, 'it.').replace(/^b\./, 'bb.') } as FieldSpec,
  ]),
);

/**
 * A criterion across the relation of items and builds: from items `artifact.…` and
 * `dependency.…` (the build files whose checksum the item has, their module and build), from
 * builds `module.…` (its files, and the stored items they are). Undefined for any other key.
 */
export function relationField(
  domain: 'items' | 'builds',
  key: string,
): { kind: 'artifact' | 'dependency' | undefined; spec: FieldSpec; item: boolean } | undefined {
  if (domain === 'items') {
    const match = /^(artifact|dependency)\.(.+)$/.exec(key);
    if (!match) return undefined;
    const kind = match[1] as 'artifact' | 'dependency';
    const rest = match[2]!;
    const build = /^module\.build\.(.+)$/.exec(rest)?.[1];
    const spec =
      build !== undefined ? BUILD_OF_FILE[build] : rest === 'module.name' ? MODULE_NAME : BUILD_FILE_FIELDS[rest];
    return spec && { kind, spec, item: false };
  }
  if (key === 'module.name') return { kind: undefined, spec: MODULE_NAME, item: false };
  const match = /^module\.(artifact|dependency)\.(.+)$/.exec(key);
  if (!match) return undefined;
  const kind = match[1] as 'artifact' | 'dependency';
  const item = /^item\.(.+)$/.exec(match[2]!)?.[1];
  const spec = item !== undefined ? ITEM_OF_FILE[item] : BUILD_FILE_FIELDS[match[2]!];
  return spec && { kind, spec, item: item !== undefined };
}

const COMPARISONS = { $eq: '=', $ne: '<>', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;
const OPERATORS = [...Object.keys(COMPARISONS), '$match', '$nmatch', '$before', '$last'];

/** `5d`, `2w`, `3mo`, `1y`, `30minutes` … back from now, for $before and $last. */
function relativeTime(value: string, position: number, now: number): number {
  const match = /^(\d+)\s*(s|seconds?|mi|minutes?|h|hours?|d|days?|w|weeks?|mo|months?|y|years?)$/.exec(value.trim());
  if (!match) throw new AqlError(`'${value}' is no relative time such as 5d, 2w, 3mo or 1y`, position);
  const unit = match[2]!;
  const ms = unit.startsWith('mo')
    ? 30 * 86_400_000
    : unit.startsWith('mi')
      ? 60_000
      : ({ s: 1000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000, y: 365 * 86_400_000 } as Record<string, number>)[
          unit[0]!
        ]!;
  return now - Number(match[1]) * ms;
}

/** `*` and `?` as a pattern of the engine's own (GLOB on SQLite, LIKE on PostgreSQL), case-sensitive. */
export function wildcard(column: Expression<unknown>, pattern: string, postgres: boolean): Condition {
  if (postgres) {
    const like = pattern
      .replace(/[\\%_]/g, (c) => `\\${c}`)
      .replace(/\*/g, '%')
      .replace(/\?/g, '_');
    return sql<SqlBool>`${column} LIKE ${like} ESCAPE '\\'`;
  }
  const glob = pattern.replace(/[[\]]/g, (c) => `[${c}]`);
  return sql<SqlBool>`${column} GLOB ${glob}`;
}

export interface CompileOptions {
  postgres: boolean;
  now: number;
  /** Whether the criteria name one repository (`"repo": key` at the top): property checks then walk its items. */
  oneRepository?: boolean;
  /** Another domain's fields (builds); items' by default. Property criteria belong to items only. */
  fields?: Record<string, { column: string; kind: 'text' | 'date' | 'number' | 'path' | 'type' }>;
  /** With `.transitive()`: a virtual repository's key stands for the repositories it reaches. */
  virtualMembers?: ReadonlyMap<string, readonly string[]>;
  /** Build names the caller may read: relations of items to builds reach only those. */
  readableBuilds?: readonly string[];
  /** Repositories the caller may read whole: relations of builds to items reach only their items. */
  readableRepositories?: readonly string[];
  /**
   * False when the query is already narrowed to a few items (by id): a name pattern is then
   * checked on each of them rather than looked up in the name index across every item.
   */
  nameIndex?: boolean;
}

/** Compiles criteria to a parameterised condition on `items as i` (joined with `binaries as b`). */
export function compileCriteria(eb: Eb, criteria: AqlObject, options: CompileOptions): Condition {
  const FIELDS = (options.fields ?? ITEM_FIELDS) as Record<string, { column: string; kind: string }>;
  const domain = options.fields ? 'builds' : 'items';
  const scalar = (node: AqlNode, what: string) => {
    if (node.kind !== 'scalar' || node.value === null || typeof node.value === 'boolean')
      throw new AqlError(`${what} takes a string or a number`, node.position);
    return node.value;
  };

  function fieldValue(field: string, raw: string | number, position: number, spec = FIELDS[field]!): string | number {
    const { kind } = spec;
    if (kind === 'number') {
      const n = typeof raw === 'number' ? raw : Number(raw);
      if (!Number.isFinite(n)) throw new AqlError(`${field} is compared with a number`, position);
      return n;
    }
    if (kind === 'date') {
      const ms = typeof raw === 'number' ? raw : Date.parse(raw);
      if (!Number.isFinite(ms))
        throw new AqlError(`'${raw}' is no date (use ISO 8601, e.g. 2026-11-23T10:00:00Z)`, position);
      return ms;
    }
    if (kind === 'path') return raw === '.' ? '' : String(raw).replace(/^\/+|\/+$/g, '');
    return String(raw);
  }

  function compare(field: string, op: string, node: AqlNode, spec = FIELDS[field]!): Condition {
    // the builds domain's (and the relations') columns are compared like the items'
    const column = eb.ref(spec.column as (typeof ITEM_FIELDS)[ItemField]['column']);
    if (spec.kind === 'type') {
      const value = scalar(node, 'type');
      if (value === 'any') return sql<SqlBool>`1 = 1`;
      if (value !== 'file' && value !== 'folder')
        throw new AqlError("type is 'file', 'folder' or 'any'", node.position);
      if (op !== '$eq' && op !== '$ne') throw new AqlError('type is compared with $eq or $ne', node.position);
      return eb(column, op === '$eq' ? '=' : '<>', value === 'folder' ? 1 : 0);
    }
    if (op === '$match' || op === '$nmatch') {
      const value = String(fieldValue(field, scalar(node, op), node.position, spec));
      const pattern =
        field === 'name' &&
        op === '$match' &&
        !options.postgres &&
        options.nameIndex !== false &&
        /^[*?]/.test(value) &&
        /[^*?]{3}/.test(value)
          ? // a part of the name: the trigram index finds the candidates
            eb(
              'i.id',
              'in',
              eb
                .selectFrom('items_name_search as s')
                .select('s.item_id')
                .where(() => wildcard(sql.ref('s.name'), value, false)),
            )
          : wildcard(column, value, options.postgres);
      return op === '$match' ? pattern : eb.not(pattern);
    }
    const members =
      field === 'repo' && op === '$eq' && node.kind === 'scalar' && typeof node.value === 'string'
        ? options.virtualMembers?.get(node.value)
        : undefined;
    if (members) return members.length ? eb(column, 'in', [...members]) : sql<SqlBool>`1 = 0`;
    if (node.kind === 'scalar' && node.value === null) {
      // null: the field is not set (never downloaded); only $eq and $ne say anything of it
      if (op !== '$eq' && op !== '$ne') throw new AqlError(`${op} does not compare with null`, node.position);
      return op === '$eq' ? eb(column, 'is', null) : eb(column, 'is not', null);
    }
    if (op === '$before' || op === '$last') {
      if (spec.kind !== 'date') throw new AqlError(`${op} applies to dates only`, node.position);
      const since = relativeTime(String(scalar(node, op)), node.position, options.now);
      return eb(column, op === '$before' ? '<' : '>=', since);
    }
    const value = fieldValue(field, scalar(node, op), node.position, spec);
    return eb(column, COMPARISONS[op as keyof typeof COMPARISONS], value);
  }

  /** `{"$op": value, …}` or a bare value (equality), applied by `apply`. */
  function operations(node: AqlNode, apply: (op: string, value: AqlNode) => Condition): Condition {
    if (node.kind !== 'object') return apply('$eq', node);
    if (!node.entries.length) throw new AqlError('An empty comparison', node.position);
    return eb.and(
      node.entries.map((entry) => {
        if (!OPERATORS.includes(entry.key))
          throw new AqlError(`Unknown operator '${entry.key}': ${OPERATORS.join(', ')}`, entry.position);
        return apply(entry.key, entry.value);
      }),
    );
  }

  /**
   * Items with (or, negated, without) a property matching `key` and `value`. Across repositories
   * the matching item ids come off the property index; within one repository its items are read
   * in order and each checked, so that a limit stops the walk early.
   */
  function property(key: Condition | undefined, value: Condition | undefined, negate: boolean): Condition {
    if (options.oneRepository) {
      let probe = eb
        .selectFrom('item_properties as p')
        .select(sql`1`.as('one'))
        .whereRef('p.item_id', '=', 'i.id');
      if (key) probe = probe.where(() => key);
      if (value) probe = probe.where(() => value);
      return negate ? eb.not(eb.exists(probe)) : eb.exists(probe);
    }
    let query = eb.selectFrom('item_properties as p').select('p.item_id');
    if (key) query = query.where(() => key);
    if (value) query = query.where(() => value);
    return eb('i.id', negate ? 'not in' : 'in', query);
  }

  const propertyColumn = (name: 'key' | 'value') => sql.ref(`p.${name}`);
  /** A comparison of a property column; the operator comes from the fixed list, the value is a parameter. */
  const propertyIs = (name: 'key' | 'value', op: keyof typeof COMPARISONS, value: string) =>
    op === '$eq' && name === 'value' && options.postgres
      ? // PostgreSQL indexes a value's first 256 characters: compare those (for a shorter value
        // that alone is equality), so that the index is used
        value.length < 256
        ? sql<SqlBool>`substr(p.value, 1, 256) = ${value}`
        : sql<SqlBool>`substr(p.value, 1, 256) = substr(${value}, 1, 256) and p.value = ${value}`
      : sql<SqlBool>`${propertyColumn(name)} ${sql.raw(COMPARISONS[op])} ${value}`;
  function propertyComparison(
    column: 'key' | 'value',
    op: string,
    node: AqlNode,
  ): { condition: Condition; negate: boolean } {
    const value = String(scalar(node, op));
    if (op === '$match' || op === '$nmatch')
      return { condition: wildcard(propertyColumn(column), value, options.postgres), negate: op === '$nmatch' };
    if (op === '$ne') return { condition: propertyIs(column, '$eq', value), negate: true };
    if (op === '$before' || op === '$last') throw new AqlError(`${op} applies to dates only`, node.position);
    return { condition: propertyIs(column, op as keyof typeof COMPARISONS, value), negate: false };
  }

  /**
   * The relation criteria of one object, as one condition per kind of build file: the same file
   * (and its build, or its item) must meet all of them, as a join would ask.
   */
  function relations(entries: AqlObject['entries']): Condition[] {
    const groups = new Map<
      string,
      { kind: 'artifact' | 'dependency' | undefined; item: boolean; conditions: Condition[] }
    >();
    for (const { key, value } of entries) {
      const relation = relationField(domain, key)!;
      const group = groups.get(relation.kind ?? 'module') ?? { kind: relation.kind, item: false, conditions: [] };
      group.item ||= relation.item;
      group.conditions.push(operations(value, (op, node) => compare(key, op, node, relation.spec)));
      groups.set(relation.kind ?? 'module', group);
    }
    const anyEb = eb as unknown as ExpressionBuilder<Database, never>;
    return [...groups.values()].map(({ kind, item, conditions }) => {
      if (domain === 'items') {
        const builds = options.readableBuilds ?? [];
        if (!builds.length) return sql<SqlBool>`1 = 0`;
        const files = anyEb
          .selectFrom('build_files as f')
          .innerJoin('builds as bu', 'bu.id', 'f.build_id')
          .select(sql`1`.as('one'))
          .where('f.kind', '=', kind!)
          .where(sql.ref('f.sha1'), '=', sql.ref('b.sha1'))
          .where('bu.name', 'in', [...builds])
          .where(() => eb.and(conditions));
        return eb.exists(files as never);
      }
      let files = anyEb
        .selectFrom('build_files as f')
        .select(sql`1`.as('one'))
        .where(sql.ref('f.build_id'), '=', sql.ref('i.id'));
      if (kind) files = files.where('f.kind', '=', kind);
      if (item) {
        const repositories = options.readableRepositories ?? [];
        if (!repositories.length) return sql<SqlBool>`1 = 0`;
        files = files
          .innerJoin('binaries as bb', 'bb.sha1', 'f.sha1')
          .innerJoin('items as it', 'it.sha256', 'bb.sha256')
          .where('it.repo_key', 'in', [...repositories]);
      }
      return eb.exists(files.where(() => eb.and(conditions)) as never);
    });
  }

  function compileObject(object: AqlObject): Condition {
    const related = object.entries.filter((e) => relationField(domain, e.key));
    const own = object.entries.filter((e) => !relationField(domain, e.key));
    const parts = own.map(({ key, value, position }): Condition => {
      if (key === '$and' || key === '$or') {
        if (value.kind !== 'array' || !value.items.length)
          throw new AqlError(`${key} takes a non-empty list of criteria objects`, value.position);
        const items = value.items.map((item) => {
          if (item.kind !== 'object') throw new AqlError(`${key} takes criteria objects`, item.position);
          return compileObject(item);
        });
        return key === '$and' ? eb.and(items) : eb.or(items);
      }
      if (domain === 'builds' && (key.startsWith('@') || key.startsWith('property.')))
        throw new AqlError('Builds have no property criteria here', position);
      if (key.startsWith('@')) {
        const name = key.slice(1);
        if (!name) throw new AqlError('A property criterion names its key after @', position);
        return operations(value, (op, node) => {
          const { condition, negate } = propertyComparison('value', op, node);
          return property(propertyIs('key', '$eq', name), condition, negate);
        });
      }
      if (key === 'property.key' || key === 'property.value') {
        return operations(value, (op, node) => {
          const { condition, negate } = propertyComparison(key === 'property.key' ? 'key' : 'value', op, node);
          return property(undefined, condition, negate);
        });
      }
      const field = domain === 'builds' ? key.replace(/^build\./, '') : key;
      if (!(field in FIELDS))
        throw new AqlError(
          `Unknown field '${key}' of ${domain}: ${Object.keys(FIELDS).join(', ')}${domain === 'items' ? ', @property' : ''}`,
          position,
        );
      return operations(value, (op, node) => compare(field, op, node));
    });
    parts.push(...relations(related));
    return parts.length ? eb.and(parts) : sql<SqlBool>`1 = 1`;
  }

  return compileObject(criteria);
}

/** Whether the criteria name one repository at the top level (`{"repo": "libs", …}`). */
export function pinsOneRepository(criteria: AqlObject): boolean {
  return criteria.entries.some(
    (e) =>
      e.key === 'repo' &&
      ((e.value.kind === 'scalar' && typeof e.value.value === 'string') ||
        (e.value.kind === 'object' && e.value.entries.length === 1 && e.value.entries[0]!.key === '$eq')),
  );
}

/** Whether criteria name the item type anywhere (otherwise files only, as Artifactory answers). */
export function mentionsType(node: AqlNode): boolean {
  if (node.kind === 'object') return node.entries.some((e) => e.key === 'type' || mentionsType(e.value));
  if (node.kind === 'array') return node.items.some(mentionsType);
  return false;
}
