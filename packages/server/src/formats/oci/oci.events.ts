import { TRASHCAN_REPO, type StoredEvent } from '@arca/contracts';
import type { RepoContent } from '../../features/artifacts/index.js';
import type { FormatEvent } from '../format.js';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';
import { imageFacts } from './oci.image.js';

const TAG_MANIFEST = /^(.+)\/([^./][^/]*)\/manifest\.json$/;
const TAG_FOLDER = /^(.+)\/([^./][^/]*)$/;

/** `linux/arm64/v8` as JFrog's payload names a platform. */
const platform = (text: string) => {
  const [os = '', architecture = '', variant] = text.split('/');
  return { architecture, os, ...(variant ? { variant } : {}) };
};

/**
 * Docker tags pushed and deleted, as webhooks of the `docker` domain are told: a tag's manifest
 * deployed is a push (with its image's platforms); a tag's folder deleted (its manifest went to
 * the trash can with it) is a deletion.
 */
export async function ociDomainEvents(
  event: StoredEvent,
  repo: RepositoryRow,
  content: RepoContent,
): Promise<FormatEvent[]> {
  if (event.type === 'artifact.deployed') {
    const tag = TAG_MANIFEST.exec(event.path);
    if (!tag) return [];
    // the manifest as it was deployed, read by its digest: the tag may have moved on (or gone) since
    const manifest: ItemRow = {
      id: event.id,
      repo_key: repo.key,
      path: event.path,
      parent: event.path.slice(0, event.path.lastIndexOf('/')),
      name: 'manifest.json',
      folder: 0,
      sha256: event.payload.sha256,
      size: event.payload.size,
      mime_type: null,
      created_at: event.createdAt,
      created_by: event.actor,
      modified_at: event.createdAt,
      modified_by: event.actor,
      download_count: 0,
      last_downloaded: null,
      last_downloaded_by: null,
    };
    const facts = await imageFacts(content, repo.key, manifest).catch(() => undefined);
    return [
      {
        domain: 'docker',
        eventType: 'pushed',
        data: {
          repo_key: repo.key,
          path: event.path,
          name: 'manifest.json',
          sha256: event.payload.sha256,
          size: event.payload.size,
          image_name: tag[1],
          tag: tag[2],
          platforms: (facts?.platforms ?? []).map(platform),
        },
      },
    ];
  }
  if (event.type === 'artifact.deleted' && event.payload.trashPath) {
    const folder = TAG_FOLDER.exec(event.path);
    if (!folder) return [];
    // a tag is a folder holding a manifest: an image's folder or a layer is not one
    const manifest = await content
      .stored(TRASHCAN_REPO, `${event.payload.trashPath}/manifest.json`)
      .catch(() => undefined);
    if (!manifest) return [];
    // read as the tag it was: its config and layers are still in the repository
    const facts = await imageFacts(content, repo.key, { ...manifest, path: `${event.path}/manifest.json` }).catch(
      () => undefined,
    );
    return [
      {
        domain: 'docker',
        eventType: 'deleted',
        data: {
          repo_key: repo.key,
          path: `${event.path}/manifest.json`,
          name: 'manifest.json',
          sha256: manifest.sha256,
          size: Number(manifest.size),
          image_name: folder[1],
          tag: folder[2],
          platforms: (facts?.platforms ?? []).map(platform),
        },
      },
    ];
  }
  return [];
}
