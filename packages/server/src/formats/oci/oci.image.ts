import type { RepoContent } from '../../features/artifacts/index.js';
import type { ItemRow } from '../../db/schema.js';
import { blobPath, isIndexType, manifestPath, parseManifest, type ParsedManifest } from './oci.layout.js';

/** What the catalogue and the console show of a tagged image. */
export interface ImageFacts {
  image: string;
  tag: string;
  digest: string;
  mediaType: string;
  /** `linux/amd64`, or every platform of an index. */
  platforms: string[];
  created?: string;
  totalSize: number;
  layers: { digest: string; size: number; mediaType: string; command?: string }[];
  config?: { digest: string; size: number };
}

const TAG_MANIFEST = /^(.+)\/([^./][^/]*)\/manifest\.json$/;

const platformOf = (p: { architecture?: string; os?: string; variant?: string } | undefined) =>
  p ? [p.os, p.architecture, p.variant].filter(Boolean).join('/') : '';

async function readJson(content: RepoContent, item: ItemRow | undefined): Promise<Record<string, unknown> | undefined> {
  if (!item) return undefined;
  try {
    return JSON.parse((await content.read(item)).toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * Reads a tag's manifest (`{image}/{tag}/manifest.json`) with its config and layers, or for an
 * index, its platforms and the first image's layers. Undefined for any other path.
 */
export async function imageFacts(
  content: RepoContent,
  repoKey: string,
  file: ItemRow,
): Promise<ImageFacts | undefined> {
  const match = TAG_MANIFEST.exec(file.path);
  if (!match) return undefined;
  const [, image, tag] = match as unknown as [string, string, string];
  let manifest: ParsedManifest;
  try {
    manifest = parseManifest(await content.read(file), undefined);
  } catch {
    return undefined;
  }
  const digest = `sha256:${file.sha256}`;
  let image_ = manifest;
  const platforms: string[] = [];
  if (isIndexType(manifest.mediaType)) {
    platforms.push(...manifest.manifests.map((m) => platformOf(m.platform)).filter(Boolean));
    const first = manifest.manifests[0];
    const child = first && (await content.stored(repoKey, manifestPath(image, first.digest)).catch(() => undefined));
    const body = child && (await content.read(child));
    try {
      if (body) image_ = parseManifest(body, undefined);
    } catch {
      image_ = manifest;
    }
  }
  const configItem = image_.config
    ? await content.stored(repoKey, blobPath(image, image_.config.digest)).catch(() => undefined)
    : undefined;
  const config = await readJson(content, configItem);
  if (!platforms.length && config) platforms.push(platformOf(config as { architecture?: string; os?: string }));
  const history = ((config?.history as { created_by?: string; empty_layer?: boolean }[] | undefined) ?? []).filter(
    (h) => !h.empty_layer,
  );
  return {
    image,
    tag,
    digest,
    mediaType: manifest.mediaType,
    platforms,
    ...(typeof config?.created === 'string' ? { created: config.created } : {}),
    totalSize: image_.layers.reduce((sum, l) => sum + l.size, 0) + (configItem ? Number(configItem.size) : 0),
    layers: image_.layers.map((l, i) => ({
      ...l,
      ...(history[i]?.created_by ? { command: history[i]!.created_by } : {}),
    })),
    ...(image_.config && configItem ? { config: { digest: image_.config.digest, size: Number(configItem.size) } } : {}),
  };
}
