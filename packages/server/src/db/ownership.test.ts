import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CORE_TABLES } from '../core/owned-tables.js';
import type { TableName } from './schema.js';

/**
 * Features own their tables. Each feature's entry (`features/<name>/index.ts`) declares the
 * tables it owns (`OWNED_TABLES`), the core its own (`core/owned-tables.ts`); a table is named in a
 * query only by its owner's modules, and other features call the owner's exports. The uses that
 * predate the rule are listed in OWED below: the list may only shrink (a use that goes must leave
 * it, a new one fails), so that each change that moves a query behind its owner is kept.
 */

const SRC = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The Kysely calls that name a table, as written in the sources. */
const TABLE_CALL =
  /\b(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|replaceInto|mergeInto)\(\s*['"`](\w+)/g;
/** The calls that run a query on their own (not a join): the ones that belong in a store. */
const QUERY_CALL = /\.(?:selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(/g;

/** Who a source file speaks for: `features/<name>`, `formats/<name>`, or its top folder (`core`). */
export function areaOf(file: string): string {
  const parts = file.split('/');
  return (parts[0] === 'features' || parts[0] === 'formats') && parts.length > 2
    ? parts.slice(0, 2).join('/')
    : parts[0]!;
}

/** The tables a file names that another area owns. */
export function foreignTables(file: string, source: string, owners: ReadonlyMap<string, string>): string[] {
  const area = areaOf(file);
  const found = new Set<string>();
  for (const [, table] of source.matchAll(TABLE_CALL)) {
    const owner = owners.get(table!);
    if (owner && owner !== area) found.add(table!);
  }
  return [...found].sort();
}

/** The sources the rule reads: the server's modules, not its tests, migrations, table types or test helpers. */
function sources(): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(SRC, dir), { withFileTypes: true })) {
      const file = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!['db', 'test'].includes(file)) walk(file);
      } else if (file.endsWith('.ts') && !file.includes('.test.') && !file.endsWith('.d.ts'))
        out.push({ file, text: fs.readFileSync(path.join(SRC, file), 'utf8') });
    }
  };
  walk('');
  return out;
}

async function ownersOfTables(): Promise<Map<string, string[]>> {
  const owners = new Map<string, string[]>();
  const own = (table: string, owner: string) => owners.set(table, [...(owners.get(table) ?? []), owner]);
  for (const table of CORE_TABLES) own(table, 'core');
  for (const name of fs.readdirSync(path.join(SRC, 'features'))) {
    if (!fs.existsSync(path.join(SRC, 'features', name, 'index.ts'))) continue;
    const entry = (await import(
      /* @vite-ignore */ pathToFileURL(path.join(SRC, 'features', name, 'index.ts')).href
    )) as {
      OWNED_TABLES?: readonly TableName[];
    };
    for (const table of entry.OWNED_TABLES ?? []) own(table, `features/${name}`);
  }
  return owners;
}

/** The uses of another area's tables that predate the rule, by file. Only ever shorter. */
const OWED: Record<string, string[]> = {
  'core/certificates.ts': ['certificates'],
  'core/metrics.ts': ['login_failures', 'repositories', 'repository_usage'],
  'core/permissions.ts': ['permission_grants', 'permission_targets', 'repositories'],
  'core/principals.ts': ['group_members', 'groups', 'project_members'],
  'core/proxies.ts': ['proxies'],
  'features/app-integrations/app-integrations.service.ts': ['users'],
  'features/artifacts/artifacts.store.ts': ['repositories'],
  'features/auth/auth.service.ts': ['users'],
  'features/backup/store-migrate.ts': ['binaries'],
  'features/deployments/deployments.service.ts': ['federations', 'replications'],
  'features/deployments/deployments.topology.ts': ['federations', 'replication_runs', 'replications'],
  'features/federation/federation.entities.ts': [
    'access_tokens',
    'group_members',
    'groups',
    'permission_grants',
    'permission_targets',
    'sessions',
    'users',
  ],
  'features/federation/federation.service.ts': ['deployments'],
  'features/groups/groups.store.ts': ['permission_grants', 'project_members', 'users'],
  'features/home/home.service.ts': ['builds', 'items'],
  'features/identity/external-users.ts': ['group_members', 'groups'],
  'features/identity/identity.store.ts': ['sessions'],
  'features/license-buckets/license-buckets.assign.ts': ['deployments'],
  'features/license-buckets/license-buckets.service.ts': ['deployments'],
  'features/packages/packages.store.ts': ['items', 'repositories'],
  'features/permissions/permissions.service.ts': [
    'group_members',
    'groups',
    'project_members',
    'repositories',
    'users',
  ],
  'features/permissions/permissions.store.ts': ['groups', 'repositories', 'users'],
  'features/projects/projects.store.ts': ['groups', 'repositories', 'users'],
  'features/replications/replications.engine.ts': ['binaries', 'deployments'],
  'features/replications/replications.manifest.ts': ['item_properties', 'items'],
  'features/replications/replications.routes.ts': ['repositories'],
  'features/replications/replications.service.ts': ['deployments', 'repositories'],
  'features/repositories/repositories.store.ts': ['items', 'repository_usage'],
  'features/retention/retention.criteria.ts': ['binaries', 'items'],
  'features/search/aql.compile.ts': ['binaries', 'build_files', 'builds', 'item_properties', 'items'],
  'features/search/aql.relations.ts': ['binaries', 'build_files', 'builds', 'items'],
  'features/search/aql.service.ts': ['binaries', 'builds', 'item_properties', 'items'],
  'features/search/search.classes.ts': ['archive_classes', 'items'],
  'features/search/search.console.ts': ['item_properties', 'items'],
  'features/search/search.packages.ts': ['package_versions'],
  'features/security/audit-trail.ts': ['audit_events'],
  'features/ssh/ssh.keys.ts': ['users'],
  'features/ssh/ssh.server.ts': ['access_tokens'],
  'features/support/support.bundle.ts': [
    'binaries',
    'groups',
    'permission_targets',
    'projects',
    'repositories',
    'repository_usage',
    'settings',
    'users',
    'webhooks',
  ],
  'features/tokens/tokens.store.ts': ['users'],
  'features/users/users.store.ts': ['permission_grants', 'project_members', 'users'],
};

/** Queries run outside a store (`*.store.ts`) when the rule came: the count may only go down. */
const QUERIES_OUTSIDE_STORES = 430;

describe('features own their tables', () => {
  it('gives every table exactly one owner', async () => {
    const owners = await ownersOfTables();
    const schema = fs.readFileSync(path.join(SRC, 'db', 'schema.ts'), 'utf8');
    const tables = [
      ...schema.slice(schema.indexOf('export interface Database')).matchAll(/^ {2}(\w+): \w+Table;$/gm),
    ].map((m) => m[1]!);
    expect(tables.length).toBeGreaterThan(60);
    expect(tables.filter((table) => owners.get(table)?.length !== 1)).toEqual([]);
  });

  it("names another area's table only where the list of what is owed says so, and the list only shrinks", async () => {
    const owners = new Map([...(await ownersOfTables())].map(([table, [owner]]) => [table, owner!]));
    const found: Record<string, string[]> = {};
    for (const { file, text } of sources()) {
      const foreign = foreignTables(file, text, owners);
      if (foreign.length) found[file] = foreign;
    }
    const added = Object.entries(found).flatMap(([file, tables]) =>
      tables.filter((t) => !OWED[file]?.includes(t)).map((t) => `${file} names ${t} (owned by ${owners.get(t)})`),
    );
    const paid = Object.entries(OWED).flatMap(([file, tables]) =>
      tables.filter((t) => !found[file]?.includes(t)).map((t) => `${file} no longer names ${t}: take it off OWED`),
    );
    expect(added).toEqual([]);
    expect(paid).toEqual([]);
  });

  it("finds a planted use of another feature's table", () => {
    const owners = new Map([
      ['webhooks', 'features/webhooks'],
      ['builds', 'features/builds'],
    ]);
    const planted = "export const peek = (db: Db) => db.selectFrom('webhooks as w').selectAll().execute();";
    expect(foreignTables('features/builds/builds.service.ts', planted, owners)).toEqual(['webhooks']);
    expect(foreignTables('features/webhooks/webhooks.store.ts', planted, owners)).toEqual([]);
    expect(foreignTables('features/builds/builds.store.ts', "db.insertInto('builds')", owners)).toEqual([]);
  });

  it('runs no more queries outside the stores than when the rule came', () => {
    let outside = 0;
    for (const { file, text } of sources())
      if (!file.endsWith('.store.ts')) outside += text.match(QUERY_CALL)?.length ?? 0;
    expect(outside).toBeLessThanOrEqual(QUERIES_OUTSIDE_STORES);
  });
});
