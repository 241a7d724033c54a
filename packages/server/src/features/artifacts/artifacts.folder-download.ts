import type { FastifyReply } from 'fastify';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import yazl from 'yazl';
import { ARTIFACT_MESSAGES, formatMessage } from '@arca/contracts';
import { HttpError, badRequest, notFound } from '../../core/errors.js';
import type { ItemRow } from '../../db/schema.js';
import type { RepoContent } from './artifacts.content.js';

export const FOLDER_ARCHIVE_TYPES = ['zip', 'tar', 'tar.gz', 'tgz'] as const;

/** Folder downloads one process runs at once; past it the spec's message (they are long and heavy). */
export const MAX_CONCURRENT_FOLDER_DOWNLOADS = 10;
/** The largest folder a download takes (Artifactory's defaults: 1 GiB … here by files and bytes). */
export const FOLDER_DOWNLOAD_MAX_FILES = 10_000;
export const FOLDER_DOWNLOAD_MAX_BYTES = 1024 * 1024 * 1024;

let running = 0;

export interface FolderArchive {
  fileName: string;
  contentType: string;
  stream: Readable;
}

/**
 * A folder's readable files as one archive, streamed as it is written (`zip`, `tar`, `tar.gz`,
 * `tgz`): the folder is resolved with the caller's read right, its files are those the caller may
 * read. At most MAX_CONCURRENT_FOLDER_DOWNLOADS run at once per process.
 */
export async function folderArchive(
  content: RepoContent,
  repoKey: string,
  path: string,
  archiveType: string,
): Promise<FolderArchive> {
  if (!(FOLDER_ARCHIVE_TYPES as readonly string[]).includes(archiveType))
    throw badRequest(ARTIFACT_MESSAGES.folderDownloadType);
  const repo = await content.repository(repoKey);
  const found = path ? await content.resolve(repo, path) : undefined;
  if (path && (!found || found.item.folder !== 1)) throw notFound();
  const holder = found?.repo ?? repo;
  const files = (await content.below(holder.key, path)).filter((i) => i.folder === 0);
  const bytes = files.reduce((sum, f) => sum + Number(f.size), 0);
  if (files.length > FOLDER_DOWNLOAD_MAX_FILES || bytes > FOLDER_DOWNLOAD_MAX_BYTES)
    throw badRequest(
      formatMessage(ARTIFACT_MESSAGES.folderDownloadTooLarge, {
        files: String(FOLDER_DOWNLOAD_MAX_FILES),
        size: '1 GB',
      }),
    );
  if (running >= MAX_CONCURRENT_FOLDER_DOWNLOADS) throw new HttpError(429, ARTIFACT_MESSAGES.folderDownloadBusy);
  running++;
  const relative = (item: ItemRow) => (path ? item.path.slice(path.length + 1) : item.path);
  const base = (path.split('/').pop() || holder.key).replace(/[^\w.-]/g, '_');
  const output = new PassThrough();
  let finished = false;
  const done = () => {
    if (!finished) {
      finished = true;
      running--;
    }
  };
  output.on('close', done);
  output.on('end', done);
  output.on('error', done);

  if (archiveType === 'zip') {
    const zip = new yazl.ZipFile();
    for (const file of files)
      zip.addReadStream(content.open(file), relative(file), {
        mtime: new Date(file.modified_at),
        size: Number(file.size),
      });
    zip.end();
    pipeline(zip.outputStream, output).catch(() => undefined);
  } else {
    const pack = tar.pack();
    void (async () => {
      for (const file of files) {
        const entry = pack.entry({ name: relative(file), size: Number(file.size), mtime: new Date(file.modified_at) });
        await pipeline(content.open(file), entry);
      }
      pack.finalize();
    })().catch(() => pack.destroy());
    // a client that goes away ends the archive: its streams fail quietly into `output`'s close
    const written = archiveType === 'tar' ? pipeline(pack, output) : pipeline(pack, createGzip(), output);
    written.catch(() => pack.destroy());
  }
  const extension = archiveType === 'tgz' ? 'tgz' : archiveType;
  return {
    fileName: `${base}.${extension}`,
    contentType:
      archiveType === 'zip' ? 'application/zip' : archiveType === 'tar' ? 'application/x-tar' : 'application/gzip',
    stream: output,
  };
}

/** Sends a folder archive as a download. */
export function sendFolderArchive(reply: FastifyReply, archive: FolderArchive) {
  return reply
    .type(archive.contentType)
    .header('content-disposition', `attachment; filename="${archive.fileName}"`)
    .send(archive.stream);
}
