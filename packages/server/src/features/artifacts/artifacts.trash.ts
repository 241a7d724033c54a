import { ARTIFACT_MESSAGES, TRASHCAN_REPO } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { ItemRow } from '../../db/schema.js';
import { ancestorsOf } from '../../core/artifact-path.js';
import { badRequest, notFound } from '../../core/errors.js';
import { recordChange, type ChangeActor } from '../../core/changes.js';
import { adjustUsage, countChildren, deleteItems, findItem, findSubtree, propertiesOf } from './artifacts.store.js';
import { allowAll, relocate, repositoryOrTrash, type Authorize, type Location } from './artifacts.items.js';
import type { ArtifactContext } from './artifacts.service.js';

/*
 * The trash can: a delete moves an item (and everything below it) to `auto-trashcan/<repo>/<path>`
 * with where it came from, who deleted it and when; restore puts it back; emptying and retention
 * delete for good.
 */

/** Deletes an item: to the trash can, or for good when it already is in the trash can. */
export async function removeItem(
  ctx: ArtifactContext,
  repoKey: string,
  path: string,
  actor: string,
  authorize: Authorize = allowAll,
  within?: (trx: Db) => Promise<void>,
): Promise<void> {
  const { db } = ctx;
  const repo = await repositoryOrTrash(db, repoKey);
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    const items = await findSubtree(trx, repo.key, path);
    if (!items.length) throw notFound();
    await authorize(items);
    // first: what the caller lets go of (a release bundle's holds) is gone before the items are
    await within?.(trx);
    if (repo.key === TRASHCAN_REPO) {
      await deleteItems(trx, items, now);
      await pruneEmptyTrashFolders(trx, path);
      await recordChange(trx, actor, {
        event: {
          type: 'artifact.deleted',
          repoKey: repo.key,
          path,
          payload: { permanently: true },
        },
      });
      return;
    }
    const trashPath = await moveToTrash(trx, repo.key, path, items, actor, now);
    const root = items.find((i) => i.path === path);
    const file = root && root.folder === 0 ? { sha256: root.sha256 ?? '', size: Number(root.size) } : {};
    await recordChange(trx, actor, {
      event: { type: 'artifact.deleted', repoKey: repo.key, path, payload: { trashPath, ...file } },
    });
  });
}

/**
 * Moves `items` (the subtree at `path` of `repoKey`) to the trash can, with where they came
 * from, who deleted them and when; inside the caller's transaction. Answers the trash path.
 */
export async function moveToTrash(
  trx: Db,
  repoKey: string,
  path: string,
  items: ItemRow[],
  actor: string,
  now: number,
): Promise<string> {
  const trashPath = path ? `${repoKey}/${path}` : repoKey;
  const trashProps = {
    'trash.originalRepository': [repoKey],
    'trash.originalPath': [path],
    'trash.deletedBy': [actor],
    'trash.time': [String(now)],
  };
  await relocate(trx, items, { repoKey, path }, { repoKey: TRASHCAN_REPO, path: trashPath }, actor, now, trashProps);
  return trashPath;
}

/** Removes the trash can's folders above `path` that nothing is left in. */
async function pruneEmptyTrashFolders(trx: Db, path: string): Promise<void> {
  for (const folder of ancestorsOf(path).reverse()) {
    if ((await countChildren(trx, TRASHCAN_REPO, folder)) > 0) return;
    const deleted = await trx
      .deleteFrom('items')
      .where('repo_key', '=', TRASHCAN_REPO)
      .where('path', '=', folder)
      .where('folder', '=', 1)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) > 0) await adjustUsage(trx, TRASHCAN_REPO, { folders: -1 });
  }
}

/** Restores an item of the trash can to where it was deleted from, or to `to`. */
export async function restoreFromTrash(
  ctx: ArtifactContext,
  trashPath: string,
  to: Location | undefined,
  actor: string,
  authorize: Authorize<Location> = allowAll,
): Promise<Location> {
  const { db } = ctx;
  const top = await findItem(db, TRASHCAN_REPO, trashPath);
  if (!top) throw notFound();
  const props = await propertiesOf(db, top.id);
  const slash = trashPath.indexOf('/');
  const original: Location = {
    repoKey: props['trash.originalRepository']?.[0] ?? (slash < 0 ? trashPath : trashPath.slice(0, slash)),
    path: props['trash.originalPath']?.[0] ?? (slash < 0 ? '' : trashPath.slice(slash + 1)),
  };
  const destination = to ?? original;
  if (!destination.path) throw badRequest(ARTIFACT_MESSAGES.toRequired);
  const target = await repositoryOrTrash(db, destination.repoKey);
  if (target.key === TRASHCAN_REPO || target.rclass !== 'local')
    throw badRequest(`'${destination.repoKey}' is not a local repository.`);
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    const items = await findSubtree(trx, TRASHCAN_REPO, trashPath);
    await authorize(
      items,
      (item) => (destination.path + item.path.slice(trashPath.length)).replace(/^\/+/, ''),
      destination,
    );
    await relocate(trx, items, { repoKey: TRASHCAN_REPO, path: trashPath }, destination, actor, now);
    for (const item of items) {
      await trx.deleteFrom('item_properties').where('item_id', '=', item.id).where('key', 'like', 'trash.%').execute();
    }
    await pruneEmptyTrashFolders(trx, trashPath);
    await recordChange(trx, actor, {
      event: {
        type: 'artifact.restored',
        repoKey: destination.repoKey,
        path: destination.path,
        payload: { trashPath },
      },
    });
  });
  return destination;
}

/** Empties the trash can, or only what was deleted before `before` (epoch ms). Returns the files removed. */
export async function emptyTrash(ctx: ArtifactContext, actor: ChangeActor | string, before?: number): Promise<number> {
  const { db } = ctx;
  const now = Date.now();
  return db.transaction().execute(async (trx) => {
    let items = await findSubtree(trx, TRASHCAN_REPO, '');
    if (before !== undefined) {
      const expired = await trx
        .selectFrom('item_properties')
        .select(['item_id', 'value'])
        .where('key', '=', 'trash.time')
        .execute();
      const old = new Set(expired.filter((p) => Number(p.value) < before).map((p) => p.item_id));
      items = items.filter((i) => old.has(i.id));
    }
    await deleteItems(trx, items, now);
    const files = items.filter((i) => i.folder === 0).length;
    if (items.length)
      await recordChange(trx, actor, {
        // what administrators look for in the audit trail: who emptied the trash can, or the retention job
        audit: {
          category: 'repository',
          action: before === undefined ? 'trash.empty' : 'trash.retention',
          target: TRASHCAN_REPO,
          after: { files },
        },
        event: {
          type: 'artifact.deleted',
          repoKey: TRASHCAN_REPO,
          path: '',
          payload: { emptied: items.length },
        },
      });
    return files;
  });
}
