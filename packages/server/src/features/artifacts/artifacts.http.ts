import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DerivedFile } from './artifacts.formats.js';
import { ARTIFACT_MESSAGES, type Properties } from '@arca/contracts';
import { parseRequestPath } from '../../core/artifact-path.js';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';
import { HttpError, badRequest, notFound } from '../../core/errors.js';
import { SMALL_BINARY_BYTES } from '../../storage/binary-store.js';
import { checksumsOf } from './artifacts.service.js';
import { countDownload } from './artifacts.stats.js';
import { actorName } from '../../core/principals.js';

/** `http(s)://host[:port]` of the request, for the addresses in answers. */
export { baseUrlOf } from '../../core/base-url.js';

function parseRange(header: string, size: number): { start: number; end: number } | 'invalid' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined; // several ranges or another unit: answer the whole file
  const [, from, to] = match as unknown as [string, string, string];
  if (!from && !to) return 'invalid';
  let start: number;
  let end: number;
  if (!from) {
    start = Math.max(0, size - Number(to));
    end = size - 1;
  } else {
    start = Number(from);
    end = to ? Math.min(Number(to), size - 1) : size - 1;
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

/** Files from this size on are downloaded straight from the object store, when it is configured so. */
const REDIRECT_FROM_BYTES = 1024 * 1024;
/** How long a presigned download address is good for. */
const REDIRECT_SECONDS = 300;

/**
 * Answers a stored file the way Artifactory does: checksum headers, ETag (the SHA-1),
 * Last-Modified, conditional requests and single byte ranges. HEAD answers the headers only.
 */
export async function sendItem(request: FastifyRequest, reply: FastifyReply, item: ItemRow): Promise<FastifyReply> {
  const checksums = await checksumsOf(request.server.db, item.sha256!);
  const size = Number(item.size);
  const etag = `"${checksums.sha1}"`;
  const lastModified = new Date(Math.floor(item.modified_at / 1000) * 1000);
  reply
    .header('Content-Type', item.mime_type ?? 'application/octet-stream')
    .header('Accept-Ranges', 'bytes')
    .header('ETag', etag)
    .header('Last-Modified', lastModified.toUTCString())
    .header('X-Checksum-Sha1', checksums.sha1)
    .header('X-Checksum-Sha256', checksums.sha256)
    .header('X-Checksum-Md5', checksums.md5)
    .header('X-Artifactory-Filename', encodeURIComponent(item.name))
    .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(item.name)}`);

  const ifNoneMatch = request.headers['if-none-match'];
  const ifModifiedSince = request.headers['if-modified-since'];
  if (
    (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === etag || t.trim() === '*')) ||
    (!ifNoneMatch && ifModifiedSince && Date.parse(ifModifiedSince) >= lastModified.getTime())
  ) {
    return reply.status(304).send();
  }

  const rangeHeader = request.headers.range;
  const range = rangeHeader ? parseRange(rangeHeader, size) : undefined;
  if (range === 'invalid') {
    return reply.status(416).header('Content-Range', `bytes */${size}`).send();
  }
  if (request.method === 'GET') {
    countDownload(request.server.db, item, actorName(request.principal));
    request.server.metrics.downloaded(item.repo_key, range ? range.end - range.start + 1 : size);
  }
  if (range) {
    reply
      .status(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
      .header('Content-Length', range.end - range.start + 1);
    if (request.method === 'HEAD') return reply.send();
    return reply.send(request.server.binaries.read(item.sha256!, range));
  }
  const { binaries, config } = request.server;
  // an object store serves a large file itself, from a presigned address good for a few minutes
  if (
    request.method === 'GET' &&
    size >= REDIRECT_FROM_BYTES &&
    binaries.downloadUrl &&
    config.store.type === 's3' &&
    config.store.redirectDownloads
  ) {
    const url = await binaries.downloadUrl(item.sha256!, {
      fileName: item.name,
      contentType: item.mime_type ?? 'application/octet-stream',
      seconds: REDIRECT_SECONDS,
    });
    return reply.removeHeader('Content-Disposition').redirect(url, 302);
  }
  reply.header('Content-Length', size);
  if (request.method === 'HEAD') return reply.send();
  if (size === 0) return reply.send('');
  // a small file is one read into a buffer (often from the cache of hot ones), not a stream
  if (size <= SMALL_BINARY_BYTES) return reply.send(await binaries.readSmall(item.sha256!, size));
  return reply.send(binaries.read(item.sha256!));
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A folder asked for with GET: a plain HTML index of what the caller may read, as Artifactory answers browsers and wget. */
export async function sendFolderIndex(
  request: FastifyRequest,
  reply: FastifyReply,
  repo: RepositoryRow,
  path: string,
  children: ItemRow[],
): Promise<FastifyReply> {
  if (!request.url.split('?')[0]!.endsWith('/')) {
    return reply.redirect(`${request.url.split('?')[0]}/`);
  }
  const title = `Index of ${repo.key}/${path}`;
  const rows = children
    .slice(0, 10_000)
    .map((child) => {
      const name = child.folder ? `${child.name}/` : child.name;
      const size = child.folder ? '-' : String(child.size);
      return `<a href="${encodeURIComponent(child.name)}${child.folder ? '/' : ''}">${escapeHtml(name)}</a>  ${new Date(child.modified_at).toISOString()}  ${size}`;
    })
    .join('\n');
  const up = path ? '<a href="../">../</a>\n' : '';
  return reply
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html><head><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><pre>${up}${rows}</pre></body></html>`,
    );
}

/** Reads a header that may be given once. */
export function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  if (Array.isArray(value)) throw new HttpError(400, `The ${name} header may be given only once.`);
  return value;
}

/** Splits `/<prefix>/<repoKey>/<path…>` of the raw URL into a repository key and a checked path. */
export function repoAndPath(
  request: FastifyRequest,
  prefix: string,
): { repoKey: string; path: string; properties: Properties } {
  const raw = request.raw.url ?? '';
  const pathname = raw.split('?')[0]!.slice(prefix.length).replace(/^\/+/, '');
  const slash = pathname.indexOf('/');
  const rawKey = slash < 0 ? pathname : pathname.slice(0, slash);
  let repoKey: string;
  try {
    repoKey = decodeURIComponent(rawKey.split(';')[0]!);
  } catch {
    throw badRequest(ARTIFACT_MESSAGES.pathTraversal);
  }
  if (!repoKey) throw notFound();
  const { path, properties } = parseRequestPath(slash < 0 ? '' : pathname.slice(slash + 1));
  return { repoKey, path, properties };
}

/** A file a format derives: its checksums as headers, conditional requests on its SHA-1. */
export function sendDerived(request: FastifyRequest, reply: FastifyReply, file: DerivedFile): FastifyReply {
  const hash = (algorithm: string) => createHash(algorithm).update(file.body).digest('hex');
  const sha1 = hash('sha1');
  const etag = `"${sha1}"`;
  reply
    .header('Content-Type', file.contentType)
    .header('ETag', etag)
    .header('X-Checksum-Sha1', sha1)
    .header('X-Checksum-Sha256', hash('sha256'))
    .header('X-Checksum-Md5', hash('md5'))
    .header('Content-Length', file.body.length);
  if (request.headers['if-none-match']?.split(',').some((t) => t.trim() === etag)) return reply.status(304).send();
  return reply.send(request.method === 'HEAD' ? undefined : file.body);
}
