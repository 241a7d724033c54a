import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { serveThreadCalls } from '../../core/threads.js';
import { decompress } from '../../features/artifacts/index.js';
import { field, parseStanzas, renderStanzas } from './debian.package.js';

/**
 * The merge of a virtual Debian repository's indexes, on a thread of its own: a mirror's index
 * holds some 60,000 entries per architecture, and parsing, de-duplicating, rendering and
 * compressing them would hold the server's event loop for seconds.
 */
export const MERGE_THREAD = 'debian-merge';

/** The members' indexes of one suite, in member order: each as the member has it (plain, `.gz`, `.xz`). */
export interface MergeRequest {
  indexes: { folder: string; suffix: string; body: Uint8Array }[];
}

export interface Digests {
  md5: string;
  sha1: string;
  sha256: string;
}

/** One merged index: `Packages` and `Packages.gz` of a component and architecture, with their digests. */
export interface MergedIndex {
  folder: string;
  plain: Uint8Array;
  gz: Uint8Array;
  plainDigests: Digests;
  gzDigests: Digests;
}

export const digestsOf = (body: Uint8Array): Digests => ({
  md5: createHash('md5').update(body).digest('hex'),
  sha1: createHash('sha1').update(body).digest('hex'),
  sha256: createHash('sha256').update(body).digest('hex'),
});

/**
 * Each folder's entries of every member, the first member's entry of a package, version and
 * architecture kept (keyed, never compared pairwise), in folder order.
 */
export async function mergeIndexes({ indexes }: MergeRequest): Promise<MergedIndex[]> {
  const merged = new Map<string, { stanzas: ReturnType<typeof parseStanzas>; taken: Set<string> }>();
  for (const { folder, suffix, body } of indexes) {
    const text = (await decompress(suffix, Buffer.from(body.buffer, body.byteOffset, body.byteLength))).toString(
      'utf8',
    );
    const into = merged.get(folder) ?? { stanzas: [], taken: new Set<string>() };
    for (const stanza of parseStanzas(text)) {
      const key = `${field(stanza, 'Package')}\u0000${field(stanza, 'Version')}\u0000${field(stanza, 'Architecture')}`;
      if (into.taken.has(key)) continue;
      into.taken.add(key);
      into.stanzas.push(stanza);
    }
    merged.set(folder, into);
  }
  return [...merged.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([folder, { stanzas }]) => {
      const plain = Buffer.from(renderStanzas(stanzas));
      const gz = gzipSync(plain);
      return { folder, plain, gz, plainDigests: digestsOf(plain), gzDigests: digestsOf(gz) };
    });
}

serveThreadCalls<MergeRequest, MergedIndex[]>(MERGE_THREAD, async (request) => {
  const result = await mergeIndexes(request);
  // the bodies move to the server's thread rather than being copied
  // (only those that own their whole memory: a small one may share Node's buffer pool)
  const transfer = result
    .flatMap((r) => [r.plain, r.gz])
    .filter((b) => b.byteOffset === 0 && b.byteLength === b.buffer.byteLength)
    .map((b) => b.buffer)
    .filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
  return { result, transfer };
});
