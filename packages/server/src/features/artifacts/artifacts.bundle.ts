import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import yauzl from 'yauzl';
import { ARTIFACT_MESSAGES, type Properties } from '@arca/contracts';
import { normalizeItemPath } from '../../core/artifact-path.js';
import { HttpError, badRequest } from '../../core/errors.js';
import { archiveKind } from './artifacts.archive.js';
import type { RepoContent } from './artifacts.content.js';

/** Entries one bundle may hold. */
export const BUNDLE_MAX_ENTRIES = 10_000;
/** Bytes a bundle may expand to: a small archive can expand to far more than it weighs. */
export const BUNDLE_MAX_BYTES = 16 * 1024 ** 3;

export const BUNDLE_MESSAGES = {
  notArchive: 'Only a zip, jar, war, tar or tar.gz archive can be deployed as a bundle.',
  tooMany: `The archive holds more than ${BUNDLE_MAX_ENTRIES.toLocaleString('en')} files: deploy it in parts.`,
  tooLarge: 'The archive expands past the 16 GiB a bundle may hold.',
  broken: 'The archive could not be read: it is damaged or not what its name says.',
} as const;

interface Entry {
  /** Where it lands in the repository. */
  target: string;
  size: number;
  open(): Promise<Readable>;
}

/** Fails a stream past the byte budget of the whole bundle. */
function counted(total: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      total.bytes += chunk.length;
      if (total.bytes > BUNDLE_MAX_BYTES) callback(badRequest(BUNDLE_MESSAGES.tooLarge));
      else callback(null, chunk);
    },
  });
}

const openZip = (file: string) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, zip) =>
      err || !zip ? reject(err ?? new Error('zip')) : resolve(zip),
    ),
  );

/** The files of a zip on disk, each opened on demand. */
async function zipEntries(file: string, folder: string): Promise<{ entries: Entry[]; close(): void }> {
  const zip = await openZip(file);
  const entries: Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      if (!entry.fileName.endsWith('/')) {
        if (entries.length >= BUNDLE_MAX_ENTRIES) return reject(badRequest(BUNDLE_MESSAGES.tooMany));
        entries.push({
          target: normalizeItemPath(`${folder}/${entry.fileName}`),
          size: entry.uncompressedSize,
          open: () =>
            new Promise((ok, fail) =>
              zip.openReadStream(entry, (err, stream) => (err || !stream ? fail(err) : ok(stream))),
            ),
        });
      }
      zip.readEntry();
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return { entries, close: () => zip.close() };
}

/** The files of a tar (gzipped or not) on disk: listed in a first pass, read in a second. */
async function tarEntries(file: string, gzip: boolean, folder: string): Promise<Entry[]> {
  const listed: { name: string; size: number }[] = [];
  const extract = tar.extract();
  const reading = pipeline([fs.createReadStream(file), ...(gzip ? [createGunzip()] : []), extract]);
  for await (const entry of extract) {
    if (entry.header.type === 'file') {
      if (listed.length >= BUNDLE_MAX_ENTRIES) throw badRequest(BUNDLE_MESSAGES.tooMany);
      listed.push({ name: entry.header.name, size: entry.header.size ?? 0 });
    }
    entry.resume();
  }
  await reading;
  return listed.map(({ name, size }) => ({
    target: normalizeItemPath(`${folder}/${name}`),
    size,
    open: async () => {
      // each entry re-reads the archive up to itself: tar has no index
      const again = tar.extract();
      const source = fs.createReadStream(file);
      void pipeline([source, ...(gzip ? [createGunzip()] : []), again]).catch(() => undefined);
      for await (const entry of again) {
        if (entry.header.type === 'file' && entry.header.name === name) return entry as unknown as Readable;
        entry.resume();
      }
      throw badRequest(BUNDLE_MESSAGES.broken);
    },
  }));
}

/**
 * Deploys an archive as a bundle, as Artifactory's deploy dialog does: every file in it lands
 * under `folder`, with `properties`. The archive is read whole before anything is stored: every
 * entry's path is checked (no traversal) and the caller's deploy right on each, so that a bad
 * archive or a missing right changes nothing. Should a deploy fail midway, the files this
 * bundle stored so far are removed again.
 */
export async function deployBundle(
  content: RepoContent,
  input: { repoKey: string; folder: string; archiveName: string; body: Readable; properties: Properties },
): Promise<{ files: string[] }> {
  const kind = archiveKind(input.archiveName);
  if (!kind) throw badRequest(BUNDLE_MESSAGES.notArchive);
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'arca-bundle-'));
  const file = path.join(dir, randomUUID());
  let zip: { entries: Entry[]; close(): void } | undefined;
  try {
    await pipeline(input.body, fs.createWriteStream(file));
    let entries: Entry[];
    try {
      if (kind === 'zip') {
        zip = await zipEntries(file, input.folder);
        entries = zip.entries;
      } else entries = await tarEntries(file, kind === 'tgz', input.folder);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw badRequest(BUNDLE_MESSAGES.broken);
    }
    if (!entries.length) throw badRequest(ARTIFACT_MESSAGES.notArchive);
    for (const entry of entries) await content.authorize('deploy', input.repoKey, entry.target);
    const total = { bytes: 0 };
    const deployed: string[] = [];
    try {
      for (const entry of entries) {
        const stream = await entry.open();
        await content.deploy({
          repoKey: input.repoKey,
          path: entry.target,
          properties: input.properties,
          body: stream.pipe(counted(total)),
          contentLength: entry.size,
          checksums: {},
          checksumDeploy: false,
        });
        deployed.push(entry.target);
      }
    } catch (error) {
      for (const target of deployed.reverse()) await content.remove(input.repoKey, target).catch(() => undefined);
      if (error instanceof HttpError) throw error;
      throw badRequest(BUNDLE_MESSAGES.broken);
    }
    return { files: deployed };
  } finally {
    zip?.close();
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
