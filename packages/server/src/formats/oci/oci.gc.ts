import type { RepoContent } from '../../features/artifacts/index.js';
import type { ItemRow } from '../../db/schema.js';
import { digestOfName, parseManifest } from './oci.layout.js';

/** What garbage collection removed, or with a dry run would remove. */
export interface ImageGcReport {
  dryRun: boolean;
  repositories: string[];
  /** `{repoKey}/{path}` of each untagged manifest no tagged one refers to. */
  manifests: string[];
  /** `{repoKey}/{path}` of each blob no kept manifest refers to. */
  blobs: string[];
  bytes: number;
}

/** Blobs and manifests younger than this are kept whatever refers to them: a push may still be under way. */
export const GC_GRACE_MS = 3600_000;

const PLACES = /^(.+)\/(\.blobs|\.manifests)\/(sha256__[a-f0-9]{64})$/;
const TAG = /^(.+)\/[^./][^/]*\/manifest\.json$/;

interface Image {
  tagged: Set<string>;
  manifests: Map<string, ItemRow>;
  blobs: Map<string, ItemRow>;
}

/**
 * Finds, in each local Docker/OCI repository, the manifests no tag reaches (directly, through an
 * index, or as a referrer of a kept manifest) and the blobs no kept manifest refers to, and moves
 * them to the trash can — unless `dryRun`, which only reports and changes nothing.
 */
export async function collectImageGarbage(
  content: RepoContent,
  repoKeys: string[],
  options: { dryRun: boolean; now?: number; graceMs?: number },
): Promise<ImageGcReport> {
  const now = options.now ?? Date.now();
  const grace = options.graceMs ?? GC_GRACE_MS;
  const report: ImageGcReport = { dryRun: options.dryRun, repositories: repoKeys, manifests: [], blobs: [], bytes: 0 };
  for (const repoKey of repoKeys) {
    const images = new Map<string, Image>();
    const imageOf = (name: string) => {
      let image = images.get(name);
      if (!image) images.set(name, (image = { tagged: new Set(), manifests: new Map(), blobs: new Map() }));
      return image;
    };
    for (const item of await content.below(repoKey, '')) {
      if (item.folder === 1) continue;
      const place = PLACES.exec(item.path);
      if (place) {
        const digest = digestOfName(place[3]!)!;
        (place[2] === '.blobs' ? imageOf(place[1]!).blobs : imageOf(place[1]!).manifests).set(digest, item);
        continue;
      }
      const tag = TAG.exec(item.path);
      if (tag) imageOf(tag[1]!).tagged.add(`sha256:${item.sha256}`);
    }
    for (const image of images.values()) {
      const keptManifests = new Set<string>();
      const keptBlobs = new Set<string>();
      const subjects = new Map<string, string[]>();
      const parsed = new Map<string, ReturnType<typeof parseManifest> | undefined>();
      for (const [digest, item] of image.manifests) {
        let manifest;
        try {
          manifest = parseManifest(await content.read(item), undefined);
        } catch {
          manifest = undefined;
        }
        parsed.set(digest, manifest);
        if (manifest?.subject) subjects.set(manifest.subject, [...(subjects.get(manifest.subject) ?? []), digest]);
      }
      const queue = [...image.tagged];
      while (queue.length) {
        const digest = queue.pop()!;
        if (keptManifests.has(digest)) continue;
        keptManifests.add(digest);
        const manifest = parsed.get(digest);
        for (const child of manifest?.manifests ?? []) queue.push(child.digest);
        for (const blob of manifest?.blobs ?? []) keptBlobs.add(blob.digest);
        queue.push(...(subjects.get(digest) ?? []));
      }
      const young = (item: ItemRow) => item.modified_at + grace > now;
      for (const [digest, item] of image.manifests) {
        if (keptManifests.has(digest) || young(item)) continue;
        report.manifests.push(`${repoKey}/${item.path}`);
        report.bytes += Number(item.size);
        if (!options.dryRun) await content.remove(repoKey, item.path);
      }
      for (const [digest, item] of image.blobs) {
        if (keptBlobs.has(digest) || young(item)) continue;
        report.blobs.push(`${repoKey}/${item.path}`);
        report.bytes += Number(item.size);
        if (!options.dryRun) await content.remove(repoKey, item.path);
      }
    }
  }
  return report;
}
