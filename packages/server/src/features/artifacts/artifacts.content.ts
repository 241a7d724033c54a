import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { TRASHCAN_REPO, type Properties } from '@arca/contracts';
import { allowedOutboundHosts } from '../../core/outbound.js';
import { isAllowed, readFilter, requireOnEach, requirePermission, type ReadFilter } from '../../core/permissions.js';
import { actorName } from '../../core/principals.js';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';
import { resolveItem, type Resolved } from './artifacts.resolve.js';
import {
  changeItemProperties,
  checksumsOf,
  copyOrMove,
  deploy,
  deployTarget,
  virtualMembers,
  type ArtifactContext,
  type Checksums,
  type PropertyChange,
} from './artifacts.service.js';
import { repositoryOrTrash, type Location } from './artifacts.items.js';
import { emptyTrash, removeItem, restoreFromTrash } from './artifacts.trash.js';
import { findSubtree, listChildren, propertiesOf } from './artifacts.store.js';
import type { Deployed } from './artifacts.uris.js';

/** What a deploy needs; the repository may be virtual (the file lands in its default deployment repository). */
export interface DeployRequest {
  repoKey: string;
  path: string;
  properties: Properties;
  body: Readable | undefined;
  contentLength: number | undefined;
  checksums: Checksums;
  /** Deploy by checksum: no body, the content must already be stored. */
  checksumDeploy: boolean;
}

/**
 * The one door into repository content, for the REST routes, the console routes and every
 * package format. Each call authorises the caller on the repository and path it really reads or
 * writes — the member of a virtual repository that serves a read, the default deployment
 * repository a virtual deploy lands in, every item below a folder that an operation touches, and
 * for the trash can the place an item was deleted from — with `core/permissions`, then does the
 * work in one transaction. Nothing outside the artifacts feature uses its store.
 */
export interface RepoContent {
  /** A repository (the trash can included); 404 for an unknown key. No permission needed. */
  repository(key: string): Promise<RepositoryRow>;
  /**
   * What a path means, after `read` is checked on it: the item of a local repository, the cached
   * (or fetched) one of a remote, the first readable member's for a virtual. Undefined when absent.
   */
  resolve(repo: string | RepositoryRow, path: string): Promise<Resolved | undefined>;
  /**
   * Every readable member of a virtual repository that has `path`, in resolution order, after
   * `read` is checked on the virtual repository: what a format merges metadata from.
   */
  resolveEach(repoKey: string, path: string): Promise<Resolved[]>;
  /** The bytes of a resolved file, or a range of them (inclusive end). */
  open(item: ItemRow, range?: { start: number; end: number }): Readable;
  /** The checksums of a stored file. */
  checksums(item: ItemRow): Promise<{ sha1: string; md5: string; sha256: string }>;
  /** The properties of a resolved item. */
  properties(item: ItemRow): Promise<Record<string, string[]>>;
  /** Which items of a repository the caller may see; null for all. */
  visible(repoKey: string): Promise<ReadFilter>;
  /** The readable children of a folder; a virtual repository merges its readable members' (first wins). */
  children(repo: RepositoryRow, path: string): Promise<ItemRow[]>;
  /** The readable items strictly below a path of a local or remote repository. */
  below(repoKey: string, path: string): Promise<ItemRow[]>;
  deploy(request: DeployRequest): Promise<Deployed>;
  /** Moves an item and everything below it to the trash can (or, in the trash can, deletes it for good). */
  remove(repoKey: string, path: string): Promise<void>;
  copyOrMove(mode: 'copy' | 'move', from: Location, to: Location): Promise<number>;
  changeProperties(
    target: { repoKey: string; path: string; recursive: boolean },
    change: PropertyChange,
  ): Promise<void>;
  restore(trashPath: string, to: Location | undefined): Promise<Location>;
  /** Empties the trash can (administrators; the routes require it). */
  emptyTrash(): Promise<number>;
}

/** The door for one request's caller. */
export function repoContent(request: FastifyRequest): RepoContent {
  const { db, binaries: store, config } = request.server;
  const { principal } = request;
  const actor = actorName(principal);
  const ctx: ArtifactContext = {
    db,
    store,
    log: request.log,
    allowedHosts: () => allowedOutboundHosts(db, config.outboundAllowedHosts),
    metadataMaxAgeMs: request.server.formats.metadataMaxAgeMs,
  };
  const mayRead = (repoKey: string, path: string) => isAllowed(db, principal, 'read', repoKey, path);
  const paths = (items: ItemRow[]) => items.map((i) => i.path);

  const content: RepoContent = {
    repository: (key) => repositoryOrTrash(db, key),

    async resolve(repoOrKey, path) {
      // a row the caller already looked up saves a query on every download
      const repo = typeof repoOrKey === 'string' ? await repositoryOrTrash(db, repoOrKey) : repoOrKey;
      await requirePermission(request, 'read', repo.key, path);
      const found = await resolveItem(ctx, repo, path, mayRead);
      // a file of a virtual repository is served by a member: the member's rules decide too
      if (found && found.repo.key !== repo.key && !(await mayRead(found.repo.key, found.item.path))) return undefined;
      return found;
    },

    async resolveEach(repoKey, path) {
      const repo = await repositoryOrTrash(db, repoKey);
      await requirePermission(request, 'read', repo.key, path);
      const members = repo.rclass === 'virtual' ? await virtualMembers(db, repo) : [repo];
      const found: Resolved[] = [];
      for (const member of members) {
        if (!(await mayRead(member.key, path))) continue;
        const hit = await resolveItem(ctx, member, path, mayRead);
        if (hit) found.push(hit);
      }
      return found;
    },

    open: (item, range) => store.read(item.sha256!, range),
    checksums: (item) => checksumsOf(db, item.sha256!),
    properties: (item) => propertiesOf(db, item.id),
    visible: (repoKey) => readFilter(db, principal, repoKey),

    async children(repo, path) {
      const members = repo.rclass === 'virtual' ? await virtualMembers(db, repo) : [repo];
      const merged = new Map<string, ItemRow>();
      for (const member of members) {
        const visible = await readFilter(db, principal, member.key);
        if (member !== repo && !(await mayRead(member.key, path))) continue;
        for (const row of await listChildren(db, member.key, path, 0, 100_000)) {
          if (merged.has(row.name) || (visible && !visible(row.path, row.folder === 1))) continue;
          merged.set(row.name, row);
        }
      }
      const rows = [...merged.values()];
      return members.length > 1 ? rows.sort((a, b) => b.folder - a.folder || a.name.localeCompare(b.name)) : rows;
    },

    async below(repoKey, path) {
      const visible = await readFilter(db, principal, repoKey);
      const rows = (await findSubtree(db, repoKey, path)).filter((r) => r.path !== path);
      return visible ? rows.filter((r) => visible(r.path, r.folder === 1)) : rows;
    },

    async deploy(input) {
      const repo = await repositoryOrTrash(db, input.repoKey);
      // decided on the repository the file lands in, not the virtual one it was sent to
      const target = await deployTarget(db, repo);
      await requirePermission(request, 'deploy', target.key, input.path);
      return deploy(ctx, { ...input, repo: target, actor });
    },

    async remove(repoKey, path) {
      const repo = await repositoryOrTrash(db, repoKey);
      await requirePermission(request, 'delete', repo.key, path);
      await removeItem(ctx, repo.key, path, actor, (items) => requireOnEach(request, 'delete', repo.key, paths(items)));
    },

    async copyOrMove(mode, from, to) {
      const sourceAction = mode === 'move' ? 'delete' : 'read';
      await requirePermission(request, sourceAction, from.repoKey, from.path);
      await requirePermission(request, 'deploy', to.repoKey, to.path);
      return copyOrMove(ctx, mode, from, to, actor, async (items, targetPathOf) => {
        await requireOnEach(request, sourceAction, from.repoKey, paths(items));
        await requireOnEach(
          request,
          'deploy',
          to.repoKey,
          items.map((i) => targetPathOf!(i)),
        );
      });
    },

    async changeProperties(target, change) {
      await requirePermission(request, 'annotate', target.repoKey, target.path);
      await changeItemProperties(ctx, target, change, actor, (items) =>
        requireOnEach(request, 'annotate', target.repoKey, paths(items)),
      );
    },

    async restore(trashPath, to) {
      await requirePermission(request, 'delete', TRASHCAN_REPO, trashPath);
      return restoreFromTrash(ctx, trashPath, to, actor, async (items, targetPathOf, destination) => {
        await requireOnEach(request, 'delete', TRASHCAN_REPO, paths(items));
        await requireOnEach(
          request,
          'deploy',
          destination!.repoKey,
          items.map((i) => targetPathOf!(i)),
        );
      });
    },

    emptyTrash: () => emptyTrash(ctx, actor),
  };
  return content;
}
