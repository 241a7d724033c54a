import type { ItemCreated } from '@arca/contracts';
import type { ItemRow } from '../../db/schema.js';

/** A repository path with each segment URL-encoded. */
export const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** Where a client downloads an item: `{base}/artifactory/{repo}/{path}`. */
export function downloadUri(baseUrl: string, repoKey: string, path: string): string {
  return `${baseUrl}/artifactory/${repoKey}/${encodePath(path)}`;
}

/** The storage API address of an item or folder: `{base}/artifactory/api/storage/{repo}[/{path}]`. */
export function storageUri(baseUrl: string, repoKey: string, path: string): string {
  return `${baseUrl}/artifactory/api/storage/${repoKey}${path ? `/${encodePath(path)}` : ''}`;
}

/** A stored file as its deploy answered: the item, where it landed and its checksums. */
export interface Deployed {
  repoKey: string;
  item: ItemRow;
  checksums: { sha1: string; md5: string; sha256: string };
}

/** Artifactory's answer to a deploy, with addresses on the caller's base URL. */
export function itemCreated(baseUrl: string, deployed: Deployed): ItemCreated {
  const { repoKey, item, checksums } = deployed;
  return {
    repo: repoKey,
    path: `/${item.path}`,
    created: new Date(item.created_at).toISOString(),
    createdBy: item.created_by,
    downloadUri: downloadUri(baseUrl, repoKey, item.path),
    uri: storageUri(baseUrl, repoKey, item.path),
    mimeType: item.mime_type ?? 'application/octet-stream',
    size: String(item.size),
    checksums,
    originalChecksums: checksums,
  };
}
