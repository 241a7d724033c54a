import { TRASHCAN_REPO, type ItemInfo, type TreeNode } from '@arca/contracts';
import { notFound } from '../../core/errors.js';
import type { ReadFilter } from '../../core/permissions.js';
import type { Db } from '../../db/database.js';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';
import { archiveKind } from './artifacts.archive.js';
import type { RepoContent } from './artifacts.content.js';
import { countChildren, findSubtree, listChildren, subtreeStats } from './artifacts.store.js';
import { downloadUri } from './artifacts.uris.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** How the console names a repository's kind; the trash can is its own. */
export function repoKind(repo: RepositoryRow): 'local' | 'remote' | 'virtual' | 'trashcan' {
  if (repo.key === TRASHCAN_REPO) return 'trashcan';
  return repo.rclass as 'local' | 'remote' | 'virtual';
}

function toNode(row: ItemRow): TreeNode {
  return {
    name: row.name,
    path: row.path,
    type: row.folder === 1 ? 'folder' : archiveKind(row.name) ? 'archive' : 'file',
    size: Number(row.size),
    lastModified: iso(row.modified_at),
  };
}

/**
 * One page of a folder's children for the tree. A repository the caller reads whole is paged by
 * the database; otherwise (part readable, or a virtual repository merging its members) the level
 * is filtered first and then paged.
 */
export async function treeChildren(
  db: Db,
  content: RepoContent,
  repo: RepositoryRow,
  path: string,
  page: { offset: number; limit: number },
) {
  if (repo.rclass !== 'virtual' && (await content.visible(repo.key)) === null) {
    const [rows, total] = await Promise.all([
      listChildren(db, repo.key, path, page.offset, page.limit),
      countChildren(db, repo.key, path),
    ]);
    return { items: rows.map(toNode), total, offset: page.offset };
  }
  const all = await content.children(repo, path);
  return {
    items: all.slice(page.offset, page.offset + page.limit).map(toNode),
    total: all.length,
    offset: page.offset,
  };
}

/** Counts below a path (the repository's counters for its root); with a read filter, only what the caller may read counts. */
async function statsOf(db: Db, visible: ReadFilter, repoKey: string, path: string) {
  if (!visible) return subtreeStats(db, repoKey, path);
  const stats = { files: 0, folders: 0, size: 0 };
  for (const row of await findSubtree(db, repoKey, path)) {
    if (row.path === path || !visible(row.path, row.folder === 1)) continue;
    if (row.folder === 1) stats.folders += 1;
    else {
      stats.files += 1;
      stats.size += Number(row.size);
    }
  }
  return stats;
}

/** The General tab of the tree: a repository, folder or file, with what the caller may read counted. */
export async function describeItem(
  db: Db,
  content: RepoContent,
  baseUrl: string,
  repo: RepositoryRow,
  path: string,
): Promise<ItemInfo> {
  const repoType = repoKind(repo);
  const common = { repoKey: repo.key, pkgType: repo.package_type, repoType };
  if (!path) {
    await content.resolve(repo, '');
    const stats = await statsOf(db, await content.visible(repo.key), repo.key, '');
    return {
      ...common,
      path: '',
      name: repo.key,
      type: 'repository',
      size: stats.size,
      // the trash can is built in: it has no creation time to show
      created: repo.created_at ? iso(repo.created_at) : null,
      createdBy: null,
      lastModified: repo.updated_at ? iso(repo.updated_at) : null,
      modifiedBy: null,
      mimeType: null,
      checksums: null,
      downloadUri: null,
      files: stats.files,
      folders: stats.folders,
      trash: null,
    };
  }
  const found = await content.resolve(repo, path);
  if (!found) throw notFound();
  const { item } = found;
  const properties = repo.key === TRASHCAN_REPO ? await content.properties(item) : {};
  const trash =
    repo.key === TRASHCAN_REPO && properties['trash.originalRepository']
      ? {
          originalRepository: properties['trash.originalRepository'][0]!,
          originalPath: properties['trash.originalPath']?.[0] ?? '',
          deletedBy: properties['trash.deletedBy']?.[0] ?? '',
          deletedAt: iso(Number(properties['trash.time']?.[0] ?? 0)),
        }
      : null;
  if (item.folder === 1) {
    const stats = await statsOf(db, await content.visible(found.repo.key), found.repo.key, item.path);
    return {
      ...common,
      path: item.path,
      name: item.name,
      type: 'folder',
      size: stats.size,
      created: iso(item.created_at),
      createdBy: item.created_by,
      lastModified: iso(item.modified_at),
      modifiedBy: item.modified_by,
      mimeType: null,
      checksums: null,
      downloadUri: null,
      files: stats.files,
      folders: stats.folders,
      trash,
    };
  }
  return {
    ...common,
    path: item.path,
    name: item.name,
    type: archiveKind(item.name) ? 'archive' : 'file',
    size: Number(item.size),
    created: iso(item.created_at),
    createdBy: item.created_by,
    lastModified: iso(item.modified_at),
    modifiedBy: item.modified_by,
    mimeType: item.mime_type,
    checksums: await content.checksums(item),
    downloadUri: downloadUri(baseUrl, repo.key, item.path),
    files: null,
    folders: null,
    trash,
  };
}
