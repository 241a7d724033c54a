import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3_TEST_CREDENTIALS, startS3Server, type S3TestServer } from '../test/s3-server.js';
import { FileBinaryStore, type BinaryStore } from './binary-store.js';
import { DiskReadCache } from './read-cache.js';
import { PART_BYTES } from './s3-part-uploads.js';
import { openS3Store, type S3BinaryStore } from './s3-store.js';

const digest = (algorithm: string, body: Buffer) => createHash(algorithm).update(body).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** A store under test, and a way to make one of its contents look written `ms` ago. */
interface Subject {
  store: BinaryStore;
  /** Another node's store on the same storage. */
  otherNode: BinaryStore;
  age(sha256: string, ms: number): void;
  /** Objects or files left besides the contents (temporary keys, parts). */
  leftovers(): Promise<number>;
  close(): Promise<void>;
}

Object.assign(process.env, S3_TEST_CREDENTIALS);

/** The bucket of the S3 subject's server (each test server makes one of its own name). */
let s3Bucket = '';

const SUBJECTS: Record<'file' | 's3', () => Promise<Subject>> = {
  file: async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-store-'));
    const store = new FileBinaryStore(root, 'node-a');
    return {
      store,
      otherNode: new FileBinaryStore(root, 'node-b'),
      age: (sha256, ms) => {
        const when = new Date(Date.now() - ms);
        fs.utimesSync(store.pathOf(sha256), when, when);
      },
      leftovers: async () =>
        (fs.readdirSync(path.join(root, '_tmp'), { recursive: true }) as string[]).filter((f) =>
          fs.statSync(path.join(root, '_tmp', f)).isFile(),
        ).length,
      close: async () => fs.rmSync(root, { recursive: true, force: true }),
    };
  },
  s3: async () => {
    const server: S3TestServer = await startS3Server();
    s3Bucket = server.bucket;
    const options = { endpoint: server.endpoint, bucket: server.bucket, prefix: 'deployment-1', region: 'us-east-1' };
    const store = await openS3Store({ ...options, nodeId: 'node-a', oneCopyBytes: 6 * 1024 * 1024 });
    const otherNode = await openS3Store({ ...options, nodeId: 'node-b' });
    const objectFile = (key: string) => {
      const parts = key.split('/');
      const last = parts.pop()!;
      return path.join(server.directory, server.bucket, ...parts, `${last}._S3rver_object`);
    };
    return {
      store,
      otherNode,
      age: (sha256, ms) => {
        const when = new Date(Date.now() - ms);
        fs.utimesSync(objectFile(store.contentKey(sha256)), when, when);
      },
      leftovers: async () => {
        const tmp = path.join(server.directory, server.bucket, 'deployment-1', '_tmp');
        if (!fs.existsSync(tmp)) return 0;
        return (fs.readdirSync(tmp, { recursive: true }) as string[]).filter((f) => f.endsWith('._S3rver_object'))
          .length;
      },
      close: async () => {
        store.close?.();
        otherNode.close?.();
        await server.stop();
      },
    };
  },
};

describe.each(['file', 's3'] as const)('the binary store contract on %s', (kind) => {
  let subject: Subject;
  let store: BinaryStore;
  beforeAll(async () => {
    subject = await SUBJECTS[kind]();
    store = subject.store;
  });
  afterAll(async () => {
    await subject.close();
  });

  /** Writes and commits a content; answers its SHA-256. */
  async function stored(body: Buffer, sizeHint: number | undefined = body.length): Promise<string> {
    const pending = await store.write(Readable.from([body]), sizeHint);
    await pending.commit();
    return pending.sha256;
  }

  it.each([
    ['a small content', 3_000, 3_000],
    ['a content of unknown length', 200_000, undefined],
    ['a large content in parts', 13 * 1024 * 1024, 13 * 1024 * 1024],
  ])('writes %s with its digests, visible only once committed', async (_name, size, sizeHint) => {
    const body = randomBytes(size);
    const pending = await store.write(Readable.from([body.subarray(0, 1000), body.subarray(1000)]), sizeHint);
    expect(pending).toMatchObject({
      sha256: digest('sha256', body),
      sha1: digest('sha1', body),
      md5: digest('md5', body),
      size,
    });
    expect(await store.exists(pending.sha256)).toBe(false);
    await pending.commit();
    expect(await store.exists(pending.sha256)).toBe(true);
    expect((await readAll(store.read(pending.sha256))).equals(body)).toBe(true);
    // the same bytes again: one content, still whole
    const again = await store.write(Readable.from([body]), sizeHint);
    await again.commit();
    expect((await readAll(store.read(pending.sha256))).equals(body)).toBe(true);
    expect(await subject.leftovers()).toBe(0);
  });

  it.runIf(kind === 'file')('replaces a stored content whose size is wrong when its bytes come again', async () => {
    const body = randomBytes(4000);
    const sha256 = await stored(body);
    const file = (store as FileBinaryStore).pathOf(sha256);
    fs.truncateSync(file, 1000);
    await stored(body);
    expect(fs.readFileSync(file).equals(body)).toBe(true);
    expect(await subject.leftovers()).toBe(0);
  });

  it('leaves nothing behind for a discarded write or a source that fails midway', async () => {
    const body = randomBytes(9 * 1024 * 1024);
    const discarded = await store.write(Readable.from([body]), body.length);
    await discarded.discard();
    expect(await store.exists(discarded.sha256)).toBe(false);
    const failing = Readable.from(
      (async function* () {
        yield body.subarray(0, 6 * 1024 * 1024);
        throw new Error('the client went away');
      })(),
    );
    await expect(store.write(failing, body.length)).rejects.toThrow('the client went away');
    expect(await subject.leftovers()).toBe(0);
  });

  it('writes content whose digests are known without hashing it again', async () => {
    const body = Buffer.from('{"name":"left-pad"}');
    const known = { sha256: digest('sha256', body), sha1: digest('sha1', body), md5: digest('md5', body) };
    const pending = await store.writeKnown(body, known);
    expect(pending.size).toBe(body.length);
    await pending.commit();
    expect((await store.readSmall(known.sha256, body.length)).toString()).toBe('{"name":"left-pad"}');
  });

  it('reads ranges, and a missing content fails the stream', async () => {
    const body = Buffer.from('0123456789abcdef'.repeat(5000));
    const sha256 = await stored(body);
    expect((await readAll(store.read(sha256, { start: 10, end: 19 }))).toString()).toBe('abcdef0123');
    expect((await readAll(store.read(sha256, { start: body.length - 3, end: body.length - 1 }))).toString()).toBe(
      'def',
    );
    await expect(readAll(store.read('0'.repeat(64)))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('removes a content only when neither written nor touched since the cut-off', async () => {
    const hourAgo = Date.now() - 3_600_000;
    const touched = await stored(randomBytes(5000));
    // just written: kept
    expect(await store.remove(touched, hourAgo)).toBe(false);
    // old, but a deploy by checksum has just touched it: kept
    subject.age(touched, 2 * 3_600_000);
    expect(await store.touch(touched)).toBe(true);
    expect(await store.remove(touched, hourAgo)).toBe(false);
    expect(await store.exists(touched)).toBe(true);
    // old, but the same bytes were deployed again just now: kept
    for (const sizeHint of [undefined, 5000]) {
      const body = randomBytes(5000);
      const again = await stored(body, sizeHint);
      subject.age(again, 2 * 3_600_000);
      await stored(body, sizeHint);
      expect(await store.remove(again, hourAgo)).toBe(false);
    }
    // old and left alone: removed
    const old = await stored(randomBytes(5000), undefined);
    subject.age(old, 2 * 3_600_000);
    expect(await store.remove(old, hourAgo)).toBe(true);
    expect(await store.exists(old)).toBe(false);
    expect(await store.touch(old)).toBe(false);
    expect(await store.remove(old, hourAgo)).toBe(false);
  });

  it('lists every content with when it was written', async () => {
    const sha256 = await stored(randomBytes(100));
    const listed = await collect(store.list());
    const entry = listed.find((e) => e.sha256 === sha256);
    expect(entry).toBeDefined();
    expect(Math.abs(entry!.modifiedMs - Date.now())).toBeLessThan(60_000);
    expect(listed.every((e) => /^[0-9a-f]{64}$/.test(e.sha256))).toBe(true);
  });

  it("cleans its own temporary files, and another node's only once they are idle", async () => {
    const body = randomBytes(3 * 1024 * 1024);
    const mine = await store.write(Readable.from([body]), undefined);
    const theirs = await subject.otherNode.write(Readable.from([randomBytes(3 * 1024 * 1024)]), undefined);
    expect(await subject.leftovers()).toBe(2);
    // a node starting up: its own leftovers go, another node's upload in flight stays
    expect(await store.cleanTemporary(Date.now() - 3_600_000)).toBe(1);
    expect(await subject.leftovers()).toBe(1);
    await theirs.commit();
    expect(await store.exists(theirs.sha256)).toBe(true);
    expect(await store.exists(mine.sha256)).toBe(false);
    expect(await subject.leftovers()).toBe(0);
  });

  it('keeps uploads in parts that another node continues and completes into one content', async () => {
    const first = randomBytes(6 * 1024 * 1024);
    const second = randomBytes(300_000);
    const id = await store.uploads.create('libs-docker');
    expect(await store.uploads.size(id)).toBe(0);
    expect(await store.uploads.append(id, Readable.from([first]), 0)).toBe(first.length);
    // the next part reaches another node: it sees the upload as it stands
    const other = subject.otherNode.uploads;
    await other.verify(id, 'libs-docker');
    await expect(other.verify(id, 'other-repo')).rejects.toMatchObject({ reason: 'unknown' });
    await expect(other.append(id, Readable.from([second]), 0)).rejects.toMatchObject({
      reason: 'offset',
      message: `The part starts at 0; the upload has ${first.length} bytes.`,
    });
    expect(await other.append(id, Readable.from([second]), first.length)).toBe(first.length + second.length);
    const whole = Buffer.concat([first, second]);
    expect((await readAll(store.uploads.open(id))).equals(whole)).toBe(true);
    const pending = await other.toStore(id);
    expect(pending.sha256).toBe(digest('sha256', whole));
    await pending.commit();
    await other.remove(id);
    expect((await readAll(store.read(pending.sha256))).equals(whole)).toBe(true);
    await expect(store.uploads.size(id)).rejects.toMatchObject({ reason: 'unknown' });
    await expect(store.uploads.size('../../etc')).rejects.toMatchObject({ reason: 'unknown' });
    // an upload nobody continued goes with the sweep
    const stale = await store.uploads.create('libs-docker');
    await store.uploads.append(stale, Readable.from([Buffer.from('half a layer')]));
    expect(await store.uploads.sweep(3_600_000)).toBe(0);
    expect(await store.uploads.sweep(3_600_000, Date.now() + 2 * 3_600_000)).toBe(1);
    await expect(store.uploads.size(stale)).rejects.toMatchObject({ reason: 'unknown' });
  });

  it('checks that it can be written, and says where it is', async () => {
    await store.check();
    const figures = await store.figures();
    expect(figures.type).toBe(kind === 'file' ? 'file-system' : 's3');
    if (kind === 'file') expect(figures.freeBytes).toBeGreaterThan(0);
    else
      expect(figures.location).toBe(
        `s3://${s3Bucket}/deployment-1/ at ${(store as S3BinaryStore).location.split(' at ')[1]}`,
      );
  });
});

describe('the S3 store', () => {
  let server: S3TestServer;
  beforeAll(async () => {
    server = await startS3Server('arca-more');
  });
  afterAll(async () => {
    await server.stop();
  });

  it('refuses to open a bucket that is missing or a server that does not answer, saying which', async () => {
    await expect(openS3Store({ endpoint: server.endpoint, bucket: 'no-such-bucket', nodeId: 'n' })).rejects.toThrow(
      `The bucket 'no-such-bucket' does not exist at ${server.endpoint}: create it, or set ARCA_S3_BUCKET to one that does.`,
    );
    await expect(openS3Store({ endpoint: 'http://127.0.0.1:9', bucket: 'arca-more', nodeId: 'n' })).rejects.toThrow(
      /^The object store at http:\/\/127\.0\.0\.1:9 could not be reached for the bucket 'arca-more'/,
    );
  });

  it('keeps large contents read whole in a local cache, least recently read out first', async () => {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-store-cache-'));
    const cache = DiskReadCache.open(cacheDir, 5 * 1024 * 1024);
    const store = await openS3Store({ endpoint: server.endpoint, bucket: 'arca-more', nodeId: 'n', cache });
    try {
      const contents = [randomBytes(2 * 1024 * 1024), randomBytes(2 * 1024 * 1024), randomBytes(2 * 1024 * 1024)];
      const shas: string[] = [];
      for (const body of contents) {
        const pending = await store.write(Readable.from([body]), body.length);
        await pending.commit();
        shas.push(pending.sha256);
      }
      for (const [i, sha256] of shas.entries()) {
        expect((await readAll(store.read(sha256))).equals(contents[i]!)).toBe(true);
        // the copy is kept once the reader has everything: renamed into place just after
        await expect.poll(() => cache.has(sha256)).toBe(true);
      }
      // three of 2 MiB in 5 MiB: the first read went out
      expect(fs.readdirSync(cacheDir).sort()).toEqual([shas[1], shas[2]].sort());
      expect(cache.usedBytes).toBe(4 * 1024 * 1024);
      // a cached read does not reach the object store: its object gone, the copy still answers
      fs.rmSync(path.join(server.directory, 'arca-more', 'sha256'), { recursive: true, force: true });
      expect((await readAll(store.read(shas[2]!, { start: 5, end: 9 }))).equals(contents[2]!.subarray(5, 10))).toBe(
        true,
      );
      // a cache opened again takes in what is there
      expect(DiskReadCache.open(cacheDir, 5 * 1024 * 1024).usedBytes).toBe(4 * 1024 * 1024);
    } finally {
      store.close();
      fs.rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('reads a large content in parts of the upload size, several at once, whole and in ranges across parts', async () => {
    const store = await openS3Store({ endpoint: server.endpoint, bucket: 'arca-more', nodeId: 'n' });
    const ranges: string[] = [];
    store.s3.client.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'GetObjectCommand') ranges.push((args.input as { Range?: string }).Range ?? '');
        return next(args);
      },
      { step: 'initialize', name: 'recordRanges' },
    );
    try {
      const body = randomBytes(3 * PART_BYTES + 1000);
      const pending = await store.write(Readable.from([body]), body.length);
      await pending.commit();
      ranges.length = 0;
      expect((await readAll(store.read(pending.sha256))).equals(body)).toBe(true);
      expect(ranges).toEqual([
        '',
        `bytes=${PART_BYTES}-${2 * PART_BYTES - 1}`,
        `bytes=${2 * PART_BYTES}-${3 * PART_BYTES - 1}`,
        `bytes=${3 * PART_BYTES}-${3 * PART_BYTES + 999}`,
      ]);
      const start = PART_BYTES - 5;
      const end = 2 * PART_BYTES + 5;
      expect((await readAll(store.read(pending.sha256, { start, end }))).equals(body.subarray(start, end + 1))).toBe(
        true,
      );
      // a reader that goes away early ends the read: the store reads on for the next one
      const early = store.read(pending.sha256);
      await new Promise((resolve) => early.once('data', resolve));
      early.destroy();
      expect((await readAll(store.read(pending.sha256, { start: 0, end: 9 }))).equals(body.subarray(0, 10))).toBe(true);
      // an empty content has no byte to range over: it reads as nothing
      const empty = await store.write(Readable.from([Buffer.alloc(0)]), 0);
      await empty.commit();
      expect((await readAll(store.read(empty.sha256))).length).toBe(0);
    } finally {
      store.close();
    }
  });

  it("shares the local cache between a node's processes: a copy one wrote serves the other, one removed is read again", async () => {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-store-cache-'));
    const first = await openS3Store({
      endpoint: server.endpoint,
      bucket: 'arca-more',
      nodeId: 'n',
      cache: DiskReadCache.open(cacheDir, 64 * 1024 * 1024),
    });
    const secondCache = DiskReadCache.open(cacheDir, 64 * 1024 * 1024);
    const second = await openS3Store({
      endpoint: server.endpoint,
      bucket: 'arca-more',
      nodeId: 'n',
      cache: secondCache,
    });
    try {
      const body = randomBytes(3 * 1024 * 1024);
      const pending = await first.write(Readable.from([body]), body.length);
      await pending.commit();
      expect((await readAll(first.read(pending.sha256))).equals(body)).toBe(true);
      await expect.poll(() => fs.existsSync(path.join(cacheDir, pending.sha256))).toBe(true);
      // the second process finds the first one's copy
      expect((await readAll(second.read(pending.sha256, { start: 1, end: 4 }))).equals(body.subarray(1, 5))).toBe(true);
      expect(secondCache.has(pending.sha256)).toBe(true);
      // the first one removes it: the second reads from the object store again, and keeps its own copy
      fs.rmSync(path.join(cacheDir, pending.sha256));
      expect((await readAll(second.read(pending.sha256))).equals(body)).toBe(true);
      await expect.poll(() => fs.existsSync(path.join(cacheDir, pending.sha256))).toBe(true);
    } finally {
      first.close();
      second.close();
      fs.rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('answers a presigned address a client downloads the content from', async () => {
    const store = await openS3Store({ endpoint: server.endpoint, bucket: 'arca-more', nodeId: 'n' });
    try {
      const pending = await store.write(Readable.from([Buffer.from('straight from the bucket')]), 24);
      await pending.commit();
      const url = await store.downloadUrl(pending.sha256, {
        fileName: 'notes.txt',
        contentType: 'text/plain',
        seconds: 60,
      });
      const answer = await fetch(url);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe('straight from the bucket');
      expect(answer.headers.get('content-disposition')).toBe('attachment; filename="notes.txt"');
    } finally {
      store.close();
    }
  });
});
