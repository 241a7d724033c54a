import { Readable } from 'node:stream';
import type { DeployRequest } from './artifacts.content.js';

/**
 * A deploy's body read whole, for a format that checks it before it is stored (a POM, a module
 * zip, a package's control file); undefined when it is larger than `limit` bytes.
 */
export async function readLimited(body: Readable | undefined, limit: number): Promise<Buffer | undefined> {
  if (!body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The deploy request again, with the body a format read (and perhaps changed) in its place. */
export const withBody = (request: DeployRequest, body: Buffer): DeployRequest => ({
  ...request,
  body: Readable.from([body]),
  contentLength: body.length,
});
