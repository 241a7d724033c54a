import { Readable } from 'node:stream';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { PART_BYTES, statusOf } from './s3-part-uploads.js';

/** Parts of a large read asked for at once, each held in memory until its turn: 3 × 8 MiB per download. */
export const READ_PARTS_IN_FLIGHT = 3;

/** Where an object is, for one read of it. */
export interface RangedSource {
  client: S3Client;
  bucket: string;
  key: string;
  /** The error a missing object is read as. */
  missing: () => Error;
}

/** "bytes 0-8388607/1073741824" → 1073741824 */
const totalOf = (contentRange: string | undefined) => {
  const total = /\/(\d+)$/.exec(contentRange ?? '')?.[1];
  return total === undefined ? undefined : Number(total);
};

/**
 * An object (or the range `start`–`end` of it) read in parts of the size uploads use, several
 * ranged GETs in flight at once and the bytes given on in order: one GET of one stream leaves a
 * large download at the speed of one connection to the object store. The first part's answer
 * tells the object's size (`onSize`); a content up to two parts is that one GET. Parts the
 * reader no longer wants (it went away) are cancelled.
 */
export function rangedRead(
  source: RangedSource,
  range?: { start: number; end: number },
  onSize?: (size: number) => void,
): Readable {
  const abort = new AbortController();
  const get = (start: number, end: number | undefined) =>
    source.client.send(
      new GetObjectCommand({
        Bucket: source.bucket,
        Key: source.key,
        ...(end === undefined ? {} : { Range: `bytes=${start}-${end}` }),
      }),
      { abortSignal: abort.signal },
    );
  async function* parts(): AsyncGenerator<Buffer> {
    const start = range?.start ?? 0;
    let first;
    try {
      // a whole read asks for the whole object: its size is not known yet, and an empty one has no
      // byte to ask a range of
      first = await get(start, range ? Math.min(range.end, start + PART_BYTES - 1) : undefined);
    } catch (error) {
      throw statusOf(error) === 404 ? source.missing() : error;
    }
    const size = totalOf(first.ContentRange) ?? first.ContentLength ?? 0;
    onSize?.(size);
    const last = range ? range.end : size - 1;
    // what is read of the first answer: a ranged one is one part; of a whole one, the first part
    // when the rest comes in parts, else all of it
    const firstEnd = range || size > 2 * PART_BYTES ? Math.min(last, start + PART_BYTES - 1) : last;
    let next = firstEnd + 1;
    const pending: Promise<Buffer[]>[] = [];
    const ask = () => {
      const from = next;
      const to = Math.min(last, from + PART_BYTES - 1);
      next = to + 1;
      const part = get(from, to).then(async (answer) => {
        // the chunks as the socket gave them: joining them into one part would copy every byte
        // once more and make the collector chase a large buffer per part
        const chunks: Buffer[] = [];
        for await (const chunk of answer.Body as AsyncIterable<Buffer>) chunks.push(chunk);
        return chunks;
      });
      // its failure is thrown where it is awaited, in order
      part.catch(() => undefined);
      return part;
    };
    let whole = false;
    try {
      while (pending.length < READ_PARTS_IN_FLIGHT && next <= last) pending.push(ask());
      let wanted = firstEnd - start + 1;
      for await (const chunk of first.Body as AsyncIterable<Buffer>) {
        if (chunk.length > wanted) {
          // the rest of a whole answer comes in parts: it is left unread
          if (wanted) yield chunk.subarray(0, wanted);
          break;
        }
        wanted -= chunk.length;
        yield chunk;
      }
      while (pending.length) {
        const part = await pending.shift()!;
        if (next <= last) pending.push(ask());
        yield* part;
      }
      whole = true;
    } finally {
      // the reader went away or a part failed: the parts still coming are not wanted
      if (!whole) abort.abort();
    }
  }
  return Readable.from(parts(), { objectMode: false, highWaterMark: 1024 * 1024 });
}
