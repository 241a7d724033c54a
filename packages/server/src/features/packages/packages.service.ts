import semver from 'semver';
import { mimeTypeOf, repoContent } from '../artifacts/index.js';
import type { FastifyRequest } from 'fastify';
import type { CataloguePackage, CatalogueVersion, Connection, PackageLicense, PackageSortField } from '@arca/contracts';
import { listRepositories } from '../repositories/index.js';
import { isAllowed } from '../../core/permissions.js';
import { findRows, type CatalogueRow } from './packages.store.js';

/** Most packages or versions one page answers. */
const MAX_PAGE = 500;

export interface PackageQuery {
  /** A name with `*` and `?` wildcards (lowercased). */
  name?: string;
  packageTypes?: string[];
  repos?: string[];
  /** Wildcards, case-insensitive, on the description of any version. */
  description?: string;
  /** Packages any of whose versions carries one of these tags (keywords). */
  tags?: string[];
  /** Wildcards on the version names. */
  version?: string;
  /** The SHA-256 of a version's lead file. */
  checksum?: string;
  /** An npm scope (`@acme` or `acme`). */
  scope?: string;
  sortBy?: PackageSortField;
  sortType?: 'asc' | 'desc';
  limit?: number;
  after?: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A wildcard pattern (`*`, `?`) as a case-insensitive test of the whole text. */
function wildcard(pattern: string): (text: string) => boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  const regex = new RegExp(`^${source}$`, 'i');
  return (text) => regex.test(text);
}

/** Whether a version row answers the filters that look into versions (not name, type or repository). */
function rowMatches(row: CatalogueRow, query: PackageQuery): boolean {
  if (query.description && !wildcard(query.description)(row.description)) return false;
  if (query.version && !wildcard(query.version)(row.version)) return false;
  if (query.checksum && row.sha256 !== query.checksum.toLowerCase()) return false;
  if (query.tags?.length) {
    const tags = json<string[]>(row.tags, []).map((t) => t.toLowerCase());
    if (!query.tags.some((t) => tags.includes(t.toLowerCase()))) return false;
  }
  if (query.scope) {
    const scope = query.scope.startsWith('@') ? query.scope : `@${query.scope}`;
    if (!row.name.toLowerCase().startsWith(`${scope.toLowerCase()}/`)) return false;
  }
  return true;
}
const json = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};
export const packageId = (type: string, name: string) => `${type}://${name}`;

/** Semver order where both are semantic versions, else text order; descending. */
export function compareVersionsDesc(a: string, b: string): number {
  const va = semver.valid(semver.coerce(a) ? a : null) ? a : undefined;
  const vb = semver.valid(semver.coerce(b) ? b : null) ? b : undefined;
  if (va && vb) return semver.rcompare(va, vb);
  const ca = semver.coerce(a);
  const cb = semver.coerce(b);
  if (ca && cb && semver.neq(ca, cb)) return semver.rcompare(ca, cb);
  return b.localeCompare(a, undefined, { numeric: true });
}

function latestOf(versions: string[]): string {
  const sorted = [...versions].sort(compareVersionsDesc);
  return sorted.find((v) => !semver.valid(v) || !semver.prerelease(v)) ?? sorted[0] ?? '';
}

const licensesOf = (rows: CatalogueRow[]): PackageLicense[] =>
  [...new Set(rows.flatMap((r) => json<string[]>(r.licenses, [])))].map((name) => ({ name, source: 'declared' }));

const encodeCursor = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
function decodeCursor(cursor: string | null | undefined): number {
  if (!cursor) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : 0;
}

function page<T>(items: T[], limit: number | undefined, after: string | null | undefined): Connection<T> {
  const start = decodeCursor(after);
  const size = Math.min(Math.max(limit ?? 50, 1), MAX_PAGE);
  const slice = items.slice(start, start + size);
  return {
    edges: slice.map((node, i) => ({ cursor: encodeCursor(start + i + 1), node })),
    pageInfo: {
      hasNextPage: start + size < items.length,
      endCursor: slice.length ? encodeCursor(start + slice.length) : null,
    },
    totalCount: items.length,
  };
}

/** The catalogue as one caller sees it: only versions whose lead file the caller may read. */
export class Catalogue {
  constructor(private readonly request: FastifyRequest) {}

  private async rows(filter: {
    name?: string;
    namePattern?: string;
    types?: string[];
    repos?: string[];
  }): Promise<CatalogueRow[]> {
    const { db } = this.request.server;
    const repos = (await listRepositories(db)).filter((r) => !filter.repos?.length || filter.repos.includes(r.key));
    const readable: string[] = [];
    for (const repo of repos) {
      // a repository the caller may read nothing of is left out in the query itself
      if (repo.rclass === 'virtual') continue;
      if (await isAllowed(db, this.request.principal, 'read', repo.key, '')) readable.push(repo.key);
    }
    const rows = await findRows(db, { ...filter, repoKeys: readable });
    const content = repoContent(this.request);
    const visible = new Map<string, Awaited<ReturnType<typeof content.visible>>>();
    for (const key of new Set(rows.map((r) => r.repo_key))) visible.set(key, await content.visible(key));
    return rows.filter((r) => {
      const filterOf = visible.get(r.repo_key);
      return !filterOf || filterOf(r.lead_path, false);
    });
  }

  private toPackage(type: string, name: string, rows: CatalogueRow[], withReadme: boolean): CataloguePackage {
    const versions = [...new Set(rows.map((r) => r.version))];
    const latest = latestOf(versions);
    const latestRow = rows.find((r) => r.version === latest) ?? rows[0]!;
    return {
      id: packageId(type, name),
      name,
      packageType: type,
      description: latestRow.description,
      created: iso(Math.min(...rows.map((r) => r.created_at))),
      modified: iso(Math.max(...rows.map((r) => r.modified_at))),
      versionsCount: versions.length,
      latestVersion: latest,
      licenses: licensesOf(rows.filter((r) => r.version === latest)),
      tags: json<string[]>(latestRow.tags, []),
      stats: { downloads: rows.reduce((sum, r) => sum + r.download_count, 0) },
      ...(withReadme ? { readme: latestRow.readme || null } : {}),
    };
  }

  /** Packages by name (wildcards), type and repository, sorted and paged (spec §9: name ascending). */
  async packages(query: PackageQuery): Promise<Connection<CataloguePackage>> {
    const pattern = (query.name ?? '*').toLowerCase();
    const rows = await this.rows({
      ...(pattern.replace(/\*/g, '') ? { namePattern: pattern } : {}),
      ...(query.packageTypes?.length && !query.packageTypes.includes('*') ? { types: query.packageTypes } : {}),
      ...(query.repos?.length ? { repos: query.repos } : {}),
    });
    // a package is selected when one of its versions answers; its figures come from all of them
    const selected = new Set(rows.filter((r) => rowMatches(r, query)).map((r) => packageId(r.package_type, r.name)));
    const groups = new Map<string, CatalogueRow[]>();
    for (const row of rows) {
      if (!selected.has(packageId(row.package_type, row.name))) continue;
      const key = packageId(row.package_type, row.name);
      const group = groups.get(key);
      if (group) group.push(row);
      else groups.set(key, [row]);
    }
    const packages = [...groups.values()].map((g) => this.toPackage(g[0]!.package_type, g[0]!.name, g, false));
    const by = query.sortBy ?? 'name';
    const direction = query.sortType === 'desc' ? -1 : 1;
    const key = (p: CataloguePackage): string | number =>
      by === 'name'
        ? p.name.toLowerCase()
        : by === 'downloads'
          ? p.stats.downloads
          : by === 'versionsCount'
            ? p.versionsCount
            : p[by];
    packages.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      const order = ka < kb ? -1 : ka > kb ? 1 : a.name.localeCompare(b.name);
      return order * direction;
    });
    return page(packages, query.limit, query.after);
  }

  private async packageRows(id: string): Promise<{ type: string; name: string; rows: CatalogueRow[] } | undefined> {
    const match = /^([a-z0-9]+):\/\/(.+)$/.exec(id);
    if (!match) return undefined;
    const [, type, name] = match as unknown as [string, string, string];
    const rows = await this.rows({ name, types: [type] });
    return rows.length ? { type, name, rows } : undefined;
  }

  async package(id: string): Promise<CataloguePackage | undefined> {
    const found = await this.packageRows(id);
    return found && this.toPackage(found.type, found.name, found.rows, true);
  }

  /** A package's versions, newest first in semver order (spec §9), with repositories, files and dependencies. */
  async versions(id: string, limit?: number, after?: string | null): Promise<Connection<CatalogueVersion>> {
    const found = await this.packageRows(id);
    if (!found) return page([], limit, after);
    const byVersion = new Map<string, CatalogueRow[]>();
    for (const row of found.rows) byVersion.set(row.version, [...(byVersion.get(row.version) ?? []), row]);
    const versions = [...byVersion.entries()]
      .sort(([a], [b]) => compareVersionsDesc(a, b))
      .map(([name, rows]): CatalogueVersion => {
        const lead = rows[0]!;
        const files = new Map<string, CatalogueVersion['files'][number]>();
        for (const row of rows) {
          const fileName = row.lead_path.split('/').pop()!;
          if (!files.has(fileName)) {
            files.set(fileName, {
              name: fileName,
              size: row.size,
              mimeType: mimeTypeOf(fileName),
              lead: files.size === 0,
              sha256: row.sha256,
            });
          }
        }
        return {
          name,
          packageId: id,
          created: iso(Math.min(...rows.map((r) => r.created_at))),
          modified: iso(Math.max(...rows.map((r) => r.modified_at))),
          repos: rows.map((r) => ({ name: r.repo_key, type: r.rclass, leadFilePath: r.lead_path })),
          licenses: licensesOf(rows),
          size: lead.size,
          stats: { downloadCount: rows.reduce((sum, r) => sum + r.download_count, 0) },
          files: [...files.values()],
          digest: lead.sha256,
          dependencies: Object.entries(json<Record<string, string>>(lead.dependencies, {})).map(([dep, range]) => ({
            name: dep,
            version: range,
          })),
          properties: Object.entries(json<Record<string, string | string[]>>(lead.fields, {})).map(([key, value]) => ({
            name: key,
            values: Array.isArray(value) ? value : [value],
          })),
        };
      });
    return page(versions, limit, after);
  }

  /** The version rows of one lead file (for the native npm calls). */
  async leadFile(repoKey: string, path: string): Promise<CatalogueRow | undefined> {
    const rows = await this.rows({ repos: [repoKey] });
    return rows.find((r) => r.lead_path === path);
  }
}
