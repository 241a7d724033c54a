import type { RepositoryRow } from '../../db/schema.js';
import { notFound } from '../../core/errors.js';
import { resolveItem } from './artifacts.resolve.js';
import { checksumsOf, type ArtifactContext } from './artifacts.service.js';
import { findSubtree, listChildren, propertiesOf } from './artifacts.store.js';

const iso = (ms: number) => new Date(ms).toISOString();
const visibleRows = <T extends { path: string; folder: number }>(ctx: ArtifactContext, rows: T[]): T[] => {
  const visible = ctx.visible;
  return visible ? rows.filter((r) => visible(r.path, r.folder === 1)) : rows;
};
const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/**
 * `GET /artifactory/api/storage/{repo}/{path}`: file info, folder info with children, `?properties`,
 * or `?list[&deep=1][&listFolders=1]`, in Artifactory's shapes.
 */
export async function storageInfo(
  ctx: ArtifactContext,
  repo: RepositoryRow,
  path: string,
  options: { properties: string | undefined; list: boolean; deep: boolean; listFolders: boolean },
): Promise<unknown> {
  const base = `${ctx.baseUrl}/artifactory/api/storage/${repo.key}${path ? `/${encodePath(path)}` : ''}`;
  const found = path ? await resolveItem(ctx, repo, path) : undefined;
  if (path && !found) throw notFound();
  const item = found?.item;
  const itemRepo = found?.repo ?? repo;

  if (options.properties !== undefined) {
    if (!item) throw notFound();
    let properties = await propertiesOf(ctx.db, item.id);
    const wanted = options.properties
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    if (wanted.length) properties = Object.fromEntries(Object.entries(properties).filter(([k]) => wanted.includes(k)));
    if (!Object.keys(properties).length) throw notFound('No properties could be found.');
    return { properties, uri: base };
  }

  if (options.list) {
    if (item && item.folder === 0) throw notFound('The list option applies to folders.');
    const rows = visibleRows(
      ctx,
      options.deep
        ? (await findSubtree(ctx.db, itemRepo.key, path)).filter((r) => r.path !== path)
        : await listChildren(ctx.db, itemRepo.key, path, 0, 100_000),
    );
    const files = [];
    for (const row of rows) {
      if (row.folder === 1 && !options.listFolders) continue;
      const relative = path ? row.path.slice(path.length) : `/${row.path}`;
      const entry: Record<string, unknown> = {
        uri: relative,
        size: Number(row.size),
        lastModified: iso(row.modified_at),
        folder: row.folder === 1,
      };
      if (row.folder === 0 && row.sha256) {
        const checksums = await checksumsOf(ctx.db, row.sha256);
        entry.sha1 = checksums.sha1;
        entry.sha2 = checksums.sha256;
      }
      files.push(entry);
    }
    return { uri: base, created: iso(item?.created_at ?? itemRepo.created_at), files };
  }

  if (!item || item.folder === 1) {
    const children = visibleRows(ctx, await listChildren(ctx.db, itemRepo.key, path, 0, 100_000));
    return {
      repo: repo.key,
      path: `/${path}`,
      created: iso(item?.created_at ?? itemRepo.created_at),
      createdBy: item?.created_by ?? 'system',
      lastModified: iso(item?.modified_at ?? itemRepo.updated_at),
      modifiedBy: item?.modified_by ?? 'system',
      lastUpdated: iso(item?.modified_at ?? itemRepo.updated_at),
      children: children.map((c) => ({ uri: `/${c.name}`, folder: c.folder === 1 })),
      uri: base,
    };
  }
  const checksums = await checksumsOf(ctx.db, item.sha256!);
  return {
    repo: itemRepo.key,
    path: `/${item.path}`,
    created: iso(item.created_at),
    createdBy: item.created_by,
    lastModified: iso(item.modified_at),
    modifiedBy: item.modified_by,
    lastUpdated: iso(item.modified_at),
    downloadUri: `${ctx.baseUrl}/artifactory/${itemRepo.key}/${encodePath(item.path)}`,
    mimeType: item.mime_type ?? 'application/octet-stream',
    size: String(item.size),
    checksums,
    originalChecksums: checksums,
    uri: base,
  };
}
