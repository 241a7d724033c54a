import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';

/**
 * Builds OCI image layouts on disk for skopeo to copy (`oci:{dir}:{tag}`): an image per platform,
 * each with its own layers of real tar.gz content and a config, under one image index.
 */
export interface LayoutImage {
  platform: { architecture: string; os: string };
  /** Each layer's files (path → content). */
  layers: Record<string, Buffer | string>[];
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function writeBlob(dir: string, data: Buffer): { digest: string; size: number } {
  const hex = sha256(data);
  fs.writeFileSync(path.join(dir, 'blobs', 'sha256', hex), data);
  return { digest: `sha256:${hex}`, size: data.length };
}

async function tarOf(files: Record<string, Buffer | string>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, body] of Object.entries(files)) {
    const data = Buffer.isBuffer(body) ? body : Buffer.from(body);
    pack.entry({ name, size: data.length, mode: 0o644, mtime: new Date(0) }, data);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Writes the layout; answers the index's digest and each image manifest's. */
export async function writeOciLayout(
  dir: string,
  tag: string,
  images: LayoutImage[],
): Promise<{ index: string; manifests: string[] }> {
  fs.mkdirSync(path.join(dir, 'blobs', 'sha256'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  const descriptors = [];
  for (const image of images) {
    const layers = [];
    const diffIds = [];
    for (const files of image.layers) {
      const raw = await tarOf(files);
      diffIds.push(`sha256:${sha256(raw)}`);
      layers.push({
        mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip',
        ...writeBlob(dir, gzipSync(raw, { level: 1 })),
      });
    }
    const config = writeBlob(
      dir,
      Buffer.from(
        JSON.stringify({
          ...image.platform,
          created: '2026-11-23T00:00:00Z',
          config: { Cmd: ['/bin/true'] },
          rootfs: { type: 'layers', diff_ids: diffIds },
        }),
      ),
    );
    const manifest = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
        layers,
      }),
    );
    descriptors.push({
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      ...writeBlob(dir, manifest),
      platform: image.platform,
    });
  }
  const index = Buffer.from(
    JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.index.v1+json', manifests: descriptors }),
  );
  const indexBlob = writeBlob(dir, index);
  fs.writeFileSync(
    path.join(dir, 'index.json'),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [
        {
          mediaType: 'application/vnd.oci.image.index.v1+json',
          ...indexBlob,
          annotations: { 'org.opencontainers.image.ref.name': tag },
        },
      ],
    }),
  );
  return { index: indexBlob.digest, manifests: descriptors.map((d) => d.digest) };
}
