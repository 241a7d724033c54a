import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';

/** A package tarball as `npm pack` makes it: files under `package/`, gzipped. */
export async function packTarball(files: Record<string, string | Buffer>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, body] of Object.entries(files)) pack.entry({ name: `package/${name}` }, body);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

/** The body `npm publish` sends for one version, and its tarball. */
export async function publishBody(
  name: string,
  version: string,
  options: { manifest?: Record<string, unknown>; tag?: string; tarball?: Buffer } = {},
) {
  const manifest = { name, version, description: `${name} for tests`, ...options.manifest };
  const tarball = options.tarball ?? (await packTarball({ 'package.json': JSON.stringify(manifest), 'index.js': '' }));
  const file = `${name.replace(/^@[^/]+\//, '')}-${version}.tgz`;
  const body = {
    _id: name,
    name,
    'dist-tags': { [options.tag ?? 'latest']: version },
    versions: {
      [version]: {
        ...manifest,
        dist: {
          integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
          shasum: createHash('sha1').update(tarball).digest('hex'),
          tarball: `http://localhost/${name}/-/${file}`,
        },
      },
    },
    _attachments: {
      [file]: { content_type: 'application/octet-stream', data: tarball.toString('base64'), length: tarball.length },
    },
  };
  return { body, tarball, file };
}
