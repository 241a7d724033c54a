import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Properties } from '@arca/contracts';
import type { Db } from '../../db/database.js';

/** A file of a repository as replication compares it. */
export interface ManifestEntry {
  path: string;
  sha256: string;
  size: number;
  /** A digest of its properties ('' when it has none): properties that differ are sent again. */
  props: string;
}

export interface LocalEntry extends ManifestEntry {
  properties: Properties;
}

export function propsDigest(properties: Properties): string {
  const keys = Object.keys(properties).sort();
  if (!keys.length) return '';
  const canonical = keys.map((k) => [k, [...properties[k]!].sort()]);
  return createHash('sha1').update(JSON.stringify(canonical)).digest('hex').slice(0, 16);
}

/** Every file of a local repository with its SHA-256, size and properties, by path. */
export async function localManifest(db: Db, repoKey: string): Promise<Map<string, LocalEntry>> {
  const items = await db
    .selectFrom('items')
    .select(['id', 'path', 'sha256', 'size'])
    .where('repo_key', '=', repoKey)
    .where('folder', '=', 0)
    .execute();
  const properties = await db
    .selectFrom('item_properties')
    .innerJoin('items', 'items.id', 'item_properties.item_id')
    .select(['item_properties.item_id', 'item_properties.key', 'item_properties.value'])
    .where('items.repo_key', '=', repoKey)
    .execute();
  const byItem = new Map<string, Properties>();
  for (const p of properties) {
    const props = byItem.get(p.item_id) ?? {};
    (props[p.key] ??= []).push(p.value);
    byItem.set(p.item_id, props);
  }
  const result = new Map<string, LocalEntry>();
  for (const item of items) {
    if (!item.sha256) continue;
    const props = byItem.get(item.id) ?? {};
    result.set(item.path, {
      path: item.path,
      sha256: item.sha256,
      size: Number(item.size),
      props: propsDigest(props),
      properties: props,
    });
  }
  return result;
}

/** One file of a local repository, as `localManifest` has it. */
export async function localEntry(db: Db, repoKey: string, path: string): Promise<LocalEntry | undefined> {
  const item = await db
    .selectFrom('items')
    .select(['id', 'path', 'sha256', 'size'])
    .where('repo_key', '=', repoKey)
    .where('path', '=', path)
    .where('folder', '=', 0)
    .executeTakeFirst();
  if (!item?.sha256) return undefined;
  const rows = await db.selectFrom('item_properties').select(['key', 'value']).where('item_id', '=', item.id).execute();
  const properties: Properties = {};
  for (const p of rows) (properties[p.key] ??= []).push(p.value);
  return { path: item.path, sha256: item.sha256, size: Number(item.size), props: propsDigest(properties), properties };
}

/**
 * A repository's manifest as it travels: one line per file (`sha256 TAB size TAB props TAB path`),
 * sorted, gzip-compressed — about 40 bytes a file on the wire.
 */
export function encodeManifest(entries: Iterable<ManifestEntry>): Buffer {
  const lines = [...entries]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((e) => `${e.sha256}\t${e.size}\t${e.props}\t${e.path}`);
  return gzipSync(lines.join('\n'), { level: 9 });
}

export function decodeManifest(body: Buffer): Map<string, ManifestEntry> {
  const result = new Map<string, ManifestEntry>();
  const text = gunzipSync(body).toString('utf8');
  if (!text) return result;
  for (const line of text.split('\n')) {
    const [sha256, size, props, ...rest] = line.split('\t');
    const path = rest.join('\t');
    if (!sha256 || !path) continue;
    result.set(path, { path, sha256, size: Number(size), props: props ?? '' });
  }
  return result;
}
