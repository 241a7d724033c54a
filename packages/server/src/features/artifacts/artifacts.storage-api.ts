import { notFound } from '../../core/errors.js';
import type { RepoContent } from './artifacts.content.js';
import { downloadUri, storageUri } from './artifacts.uris.js';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Artifactory's words for an absent item, which client libraries test for to tell "absent" from
 * "failed": 'Unable to find item' (a virtual repository: 'Not Found').
 */
const missing = (repo: { rclass: string }) => notFound(repo.rclass === 'virtual' ? 'Not Found' : 'Unable to find item');

/**
 * `GET /artifactory/api/storage/{repo}/{path}`: file info, folder info with children, `?properties`,
 * or `?list[&deep=1][&listFolders=1]`, in Artifactory's shapes, with addresses on `baseUrl`.
 * Listings show only what the caller may read, of the repository that really holds the folder.
 */
export async function storageInfo(
  content: RepoContent,
  baseUrl: string,
  repoKey: string,
  path: string,
  options: { stats?: boolean; properties: string | undefined; list: boolean; deep: boolean; listFolders: boolean },
): Promise<unknown> {
  const repo = await content.repository(repoKey);
  const base = storageUri(baseUrl, repo.key, path);
  const found = await content.resolve(repo, path);
  if (path && !found) throw missing(repo);
  const item = found?.item;
  const itemRepo = found?.repo ?? repo;

  if (options.stats) {
    if (!item || item.folder === 1) throw missing(repo);
    return {
      uri: base,
      downloadCount: Number(item.download_count),
      lastDownloaded: Number(item.last_downloaded ?? 0),
      lastDownloadedBy: item.last_downloaded_by ?? '',
      remoteDownloadCount: 0,
      remoteLastDownloaded: 0,
    };
  }

  if (options.properties !== undefined) {
    if (!item) throw missing(repo);
    let properties = await content.properties(item);
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
    const rows = options.deep ? await content.below(itemRepo.key, path) : await content.children(itemRepo, path);
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
        const checksums = await content.checksums(row);
        entry.sha1 = checksums.sha1;
        entry.sha2 = checksums.sha256;
      }
      files.push(entry);
    }
    return { uri: base, created: iso(item?.created_at ?? itemRepo.created_at), files };
  }

  if (!item || item.folder === 1) {
    const children = await content.children(item ? itemRepo : repo, path);
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
  const checksums = await content.checksums(item);
  return {
    repo: itemRepo.key,
    path: `/${item.path}`,
    created: iso(item.created_at),
    createdBy: item.created_by,
    lastModified: iso(item.modified_at),
    modifiedBy: item.modified_by,
    lastUpdated: iso(item.modified_at),
    downloadUri: downloadUri(baseUrl, itemRepo.key, item.path),
    mimeType: item.mime_type ?? 'application/octet-stream',
    size: String(item.size),
    checksums,
    originalChecksums: checksums,
    uri: base,
  };
}
