import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface DebianMirror {
  /** The mirror's root, as a remote repository's URL names it (`…/debian`). */
  url: string;
  /** The entries of each architecture's index. */
  perArchitecture: number;
  stop(): Promise<void>;
}

/** One generated entry, shaped like Debian's own (about 600 bytes). */
function stanza(i: number, arch: string): string {
  const name = `pkg-${i.toString(36)}`;
  const sha = createHash('sha256').update(`${name} ${arch}`).digest('hex');
  return [
    `Package: ${name}`,
    `Version: 1.${i % 97}.${i}-1`,
    `Installed-Size: ${100 + (i % 5000)}`,
    'Maintainer: Debian Generated Packages <generated@lists.debian.org>',
    `Architecture: ${arch}`,
    `Depends: libc6 (>= 2.36), pkg-${((i * 7) % 1000).toString(36)} (>= 1.0)`,
    `Description: generated package number ${i} of the test mirror`,
    `Homepage: https://example.org/${name}`,
    'Section: utils',
    'Priority: optional',
    `Filename: pool/main/p/${name}/${name}_1.${i % 97}.${i}-1_${arch}.deb`,
    `Size: ${1000 + i}`,
    `MD5sum: ${sha.slice(0, 32)}`,
    `SHA256: ${sha}`,
  ].join('\n');
}

/**
 * A Debian mirror's `dists/` (one suite, `main`, the architectures given) with `perArchitecture`
 * generated packages in each index — what a remote repository of deb.debian.org reads — served
 * over HTTP on loopback. No pool: the indexes are what is measured.
 */
export async function startDebianMirror(
  perArchitecture: number,
  architectures = ['amd64', 'arm64'],
): Promise<DebianMirror> {
  const files = new Map<string, Buffer>();
  const listed: string[] = [];
  for (const arch of architectures) {
    const plain = Buffer.from(`${Array.from({ length: perArchitecture }, (_, i) => stanza(i, arch)).join('\n\n')}\n`);
    const gz = gzipSync(plain);
    files.set(`dists/stable/main/binary-${arch}/Packages.gz`, gz);
    listed.push(` ${createHash('sha256').update(gz).digest('hex')} ${gz.length} main/binary-${arch}/Packages.gz`);
  }
  files.set(
    'dists/stable/Release',
    Buffer.from(
      [
        'Origin: Debian',
        'Label: Debian',
        'Suite: stable',
        'Codename: stable',
        `Date: ${new Date().toUTCString()}`,
        `Architectures: ${architectures.join(' ')}`,
        'Components: main',
        'SHA256:',
        ...listed,
        '',
      ].join('\n'),
    ),
  );
  const server = http.createServer((req, res) => {
    const body = files.get((req.url ?? '').replace(/^\/debian\//, '').split('?')[0]!);
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-length': body.length, 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/debian`,
    perArchitecture,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
