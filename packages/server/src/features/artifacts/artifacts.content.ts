import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ARTIFACT_MESSAGES,
  TRASHCAN_REPO,
  formatMessage as fill,
  type EffectiveActions,
  type ItemActionName,
  type PermissionAction,
  type Properties,
} from '@arca/contracts';
import { downloadBlocked } from '../../core/errors.js';
import { allowedOutboundHosts } from '../../core/settings.store.js';
import { isAllowed, readFilter, requireOnEach, requirePermission, type ReadFilter } from '../../core/permissions.js';
import { actorName, isAdmin, type Principal } from '../../core/principals.js';
import { listRepositories, upstreamFetch } from '../repositories/index.js';
import type { Db } from '../../db/database.js';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';
import { resolveItem, type Resolved } from './artifacts.resolve.js';
import {
  changeItemProperties,
  checksumsOf,
  copyOrMove,
  deploy,
  type CopyMoveOptions,
  type CopyMoveResult,
  deployTarget,
  virtualMembers,
  type ArtifactContext,
  type Checksums,
  type PropertyChange,
} from './artifacts.service.js';
import { repositoryOrTrash, type Location } from './artifacts.items.js';
import { emptyTrash, removeItem, restoreFromTrash } from './artifacts.trash.js';
import { SMALL_BINARY_BYTES, type PendingBinary } from '../../storage/binary-store.js';
import { filesBySha1, findItem, findSubtree, listChildren, propertiesOf } from './artifacts.store.js';
import type { Deployed } from './artifacts.uris.js';
import { sendItem } from './artifacts.http.js';
import type { ClientSignIn, HeldAdvisory, MetadataSigner } from './artifacts.ports.js';

/** What a deploy needs; the repository may be virtual (the file lands in its default deployment repository). */
export interface DeployRequest {
  repoKey: string;
  /** The repository the file lands in, when the caller already asked `writeTarget`: not looked up again. */
  target?: RepositoryRow;
  path: string;
  properties: Properties;
  body: Readable | undefined;
  contentLength: number | undefined;
  checksums: Checksums;
  /** Deploy by checksum: no body, the content must already be stored. */
  checksumDeploy: boolean;
  /** Deploy only if the file there now has this SHA-256 (null: only if there is none); 409 otherwise. */
  ifCurrent?: string | null;
  /**
   * The content is an upload received in parts (`uploads`), instead of `body`; the upload is gone
   * afterwards, whether the deploy succeeded or not.
   */
  upload?: string;
  /**
   * The content in memory with the digests the caller computed from it (instead of `body`): stored
   * without being hashed again; a SHA-256 that does not match the bytes is the caller's bug.
   */
  known?: { bytes: Buffer; sha256: string; sha1: string; md5: string };
  /**
   * Runs inside the deploy's transaction once the file is recorded: what the caller records with
   * the file commits with it, or neither does (a release bundle's version with its manifest).
   */
  within?: (trx: Db, item: ItemRow) => Promise<void>;
}

/**
 * Uploads received in parts, before they are deployed with `DeployRequest.upload`. An upload
 * belongs to the caller who opened it and to its repository: for anyone else, or through another
 * repository, it answers 404 as an unknown one.
 */
export interface Uploads {
  create(repoKey: string): Promise<string>;
  /** Bytes received so far; 404 for an unknown upload. */
  size(repoKey: string, id: string): Promise<number>;
  /** Appends a part that must start where the upload stands (416 otherwise); answers the new size. */
  append(repoKey: string, id: string, body: Readable, start?: number): Promise<number>;
  remove(repoKey: string, id: string): Promise<void>;
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
   * The repository that writes sent to `key` land in: itself, or a virtual repository's default
   * deployment repository (400 when it has none, or for a remote one). No permission needed.
   */
  writeTarget(key: string | RepositoryRow): Promise<RepositoryRow>;
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
  /**
   * The item stored at a path of a local or remote repository (a remote one's cache), after
   * `read` is checked; never fetched from an upstream. Undefined when absent.
   */
  stored(repoKey: string, path: string): Promise<ItemRow | undefined>;
  /** A virtual repository's members the caller may read, in resolution order; any other repository: itself. */
  members(repo: RepositoryRow): Promise<RepositoryRow[]>;
  /**
   * A request to a remote repository's upstream at a path relative to its URL (an API call the
   * format passes on, npm's audit): the repository's credentials (to its own host only), proxy,
   * client certificate and the outbound policy, as its fetches have them; `read` is checked.
   */
  upstreamRequest(
    repo: RepositoryRow,
    path: string,
    init?: { method?: string; headers?: Record<string, string>; body?: string },
  ): Promise<Response>;
  /** The bytes of a resolved file, or a range of them (inclusive end). */
  open(item: ItemRow, range?: { start: number; end: number }): Readable;
  /**
   * The whole of a resolved file as one buffer — for metadata a format parses (packuments,
   * indexes), never for package files; small ones come from the cache of hot contents.
   */
  read(item: ItemRow): Promise<Buffer>;
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
  /** Uploads received in parts (the container registry's chunked blob uploads). */
  uploads: Uploads;
  /**
   * Throws as a deploy or delete of `path` would for want of the right (403, or 404 when the
   * repository is hidden from the caller): checked before a format reads a body it may refuse.
   */
  authorize(action: 'deploy' | 'delete', repoKey: string, path: string, options?: { below?: boolean }): Promise<void>;
  /** Moves an item and everything below it to the trash can (or, in the trash can, deletes it for good). */
  /** `within` runs inside the removal's transaction (what the caller records goes with it, or neither). */
  remove(repo: string | RepositoryRow, path: string, options?: { within?: (trx: Db) => Promise<void> }): Promise<void>;
  /** Copies or moves; overwriting a file needs delete on it (as in Artifactory). */
  copyOrMove(mode: 'copy' | 'move', from: Location, to: Location, options?: CopyMoveOptions): Promise<CopyMoveResult>;
  changeProperties(
    target: { repoKey: string; path: string; recursive: boolean },
    change: PropertyChange,
  ): Promise<void>;
  restore(trashPath: string, to: Location | undefined): Promise<Location>;
  /** Empties the trash can (administrators; the routes require it). */
  emptyTrash(): Promise<number>;
  /** What the caller may do on a path (after `read` is checked), with the reason for each refusal. */
  allowedActions(repo: RepositoryRow, path: string): Promise<EffectiveActions>;
  /** Local repositories of the same package type where the caller may deploy `path`. */
  copyTargets(repo: RepositoryRow, path: string): Promise<RepositoryRow[]>;
  /** The repositories of a class and package types (no permission needed: what the server maintains). */
  repositories(filter?: { rclass?: string; packageTypes?: readonly string[] }): Promise<RepositoryRow[]>;
  /**
   * Answers a resolved file to the caller: checksum headers, ETag, conditional requests, byte
   * ranges; 403 with the reason when a security policy blocks the file's package version (`admit`).
   */
  send(reply: FastifyReply, item: ItemRow): Promise<FastifyReply>;
  /** Throws what a download of the file answers when a security policy blocks its package version. */
  admit(item: Pick<ItemRow, 'repo_key' | 'path'>): Promise<void>;
  /** The caller's sign-in as package clients make it (npm login, Docker's token endpoint). */
  readonly signIn: ClientSignIn;
  /**
   * Whether the caller — or, with `anonymous`, a caller who gave no credentials — may read a path:
   * for a format that answers differently rather than refusing (Cargo's `auth-required`).
   */
  mayRead(repoKey: string, path: string, options?: { anonymous?: boolean }): Promise<boolean>;
  /** What signs the repository's metadata now (no permission needed: the format serves what it signs). */
  signer(repo: RepositoryRow): Promise<MetadataSigner>;
  /** The advisories the deployment holds that affect these versions of an ecosystem's packages (a client's audit). */
  advisories(ecosystem: string, packages: Record<string, string[]>): Promise<HeldAdvisory[]>;
  /**
   * Where files with one of these SHA-1s are stored in local repositories (of one repository, or
   * all but one): locations only, as a build's file list names them — whatever the caller then
   * does with them is authorised as always.
   */
  locate(
    sha1s: string[],
    options?: { repoKey?: string; except?: string },
  ): Promise<{ repo_key: string; path: string; sha1: string }[]>;
}

const where = (repoKey: string, path: string) => `'${repoKey}${path ? `/${path}` : ''}'`;

/** The door for one request's caller. */
export function repoContent(request: FastifyRequest): RepoContent {
  const { db, binaries: store, config, doorPorts } = request.server;
  const { uploads } = doorPorts;
  const { principal } = request;
  const actor = actorName(principal);
  const uploadOwner = (repoKey: string) => `${principal.kind === 'user' ? principal.user.id : 'anonymous'}/${repoKey}`;
  const ctx: ArtifactContext = {
    db,
    store,
    log: request.log,
    allowedHosts: () => allowedOutboundHosts(db, config.outboundAllowedHosts),
    metadataMaxAgeMs: request.server.formats.metadataMaxAgeMs,
    upstreamPath: request.server.formats.upstreamPath,
    upstreamHeaders: request.server.formats.upstreamHeaders,
    upstreamAuth: request.server.formats.upstreamAuth,
    upstreamAddress: request.server.formats.upstreamAddress,
    listedElsewhere: request.server.formats.listedElsewhere,
  };
  const mayRead = (repoKey: string, path: string) => isAllowed(db, principal, 'read', repoKey, path);
  const paths = (items: ItemRow[]) => items.map((i) => i.path);

  const content: RepoContent = {
    repository: (key) => repositoryOrTrash(db, key),
    writeTarget: async (key) => deployTarget(db, typeof key === 'string' ? await repositoryOrTrash(db, key) : key),

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

    async stored(repoKey, path) {
      await requirePermission(request, 'read', repoKey, path);
      return findItem(db, repoKey, path);
    },

    async members(repo) {
      await requirePermission(request, 'read', repo.key, '', { below: true });
      if (repo.rclass !== 'virtual') return [repo];
      const readable: RepositoryRow[] = [];
      for (const member of await virtualMembers(db, repo)) {
        if (await isAllowed(db, principal, 'read', member.key, '')) readable.push(member);
      }
      return readable;
    },

    async upstreamRequest(repo, path, init = {}) {
      await requirePermission(request, 'read', repo.key, '');
      if (repo.rclass !== 'remote') throw new Error(`'${repo.key}' is no remote repository`);
      const base = repo.url.endsWith('/') ? repo.url : `${repo.url}/`;
      const url = new URL(path.replace(/^\/+/, ''), base);
      const allowed = await allowedOutboundHosts(db, config.outboundAllowedHosts);
      return upstreamFetch(db, repo, url.toString(), { ...init, allowed, credentials: true });
    },

    open: (item, range) => store.read(item.sha256!, range),
    async read(item) {
      const size = Number(item.size);
      if (size <= SMALL_BINARY_BYTES) return store.readSmall(item.sha256!, size);
      const chunks: Buffer[] = [];
      for await (const chunk of store.read(item.sha256!)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
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
      const { upload, known, target: given, ...rest } = input;
      if (upload) await uploads.verify(upload, uploadOwner(input.repoKey));
      let written: PendingBinary | undefined;
      try {
        // decided on the repository the file lands in, not the virtual one it was sent to
        const target = given ?? (await deployTarget(db, await repositoryOrTrash(db, input.repoKey)));
        await requirePermission(request, 'deploy', target.key, input.path);
        written = upload
          ? await uploads.toStore(upload)
          : known
            ? await store.writeKnown(known.bytes, { sha256: known.sha256, sha1: known.sha1, md5: known.md5 })
            : undefined;
        return await deploy(ctx, {
          ...rest,
          ...(written ? { written, contentLength: written.size } : {}),
          repo: target,
          actor,
        });
      } catch (error) {
        await written?.discard();
        throw error;
      } finally {
        if (upload) await uploads.remove(upload);
      }
    },

    uploads: {
      create: (repoKey) => uploads.create(uploadOwner(repoKey)),
      async size(repoKey, id) {
        await uploads.verify(id, uploadOwner(repoKey));
        return uploads.size(id);
      },
      async append(repoKey, id, body, start) {
        await uploads.verify(id, uploadOwner(repoKey));
        return uploads.append(id, body, start);
      },
      async remove(repoKey, id) {
        await uploads.verify(id, uploadOwner(repoKey));
        await uploads.remove(id);
      },
    },

    async authorize(action, repoKey, path, options) {
      await requirePermission(request, action, repoKey, path, options);
    },

    async remove(repoOrKey, path, options) {
      const repo = typeof repoOrKey === 'string' ? await repositoryOrTrash(db, repoOrKey) : repoOrKey;
      await requirePermission(request, 'delete', repo.key, path);
      await removeItem(
        ctx,
        repo.key,
        path,
        actor,
        (items) => requireOnEach(request, 'delete', repo.key, paths(items)),
        options?.within,
      );
    },

    async copyOrMove(mode, from, to, options) {
      const sourceAction = mode === 'move' ? 'delete' : 'read';
      await requirePermission(request, sourceAction, from.repoKey, from.path);
      await requirePermission(request, 'deploy', to.repoKey, to.path);
      // the target's format refuses what it would refuse deployed there (a released version replaced)
      await request.server.formats.admit(content, await repositoryOrTrash(db, to.repoKey), async () =>
        Promise.all(
          (await findSubtree(db, from.repoKey, from.path))
            .filter((item) => item.folder === 0)
            .map(async (item) => ({
              path: (to.path + item.path.slice(from.path.length)).replace(/^\/+/, ''),
              properties: await propertiesOf(db, item.id),
              read: () => content.read(item),
            })),
        ),
      );
      return copyOrMove(
        ctx,
        mode,
        from,
        to,
        actor,
        async (items, targetPathOf, overwritten) => {
          await requireOnEach(request, sourceAction, from.repoKey, paths(items));
          await requireOnEach(
            request,
            'deploy',
            to.repoKey,
            items.map((i) => targetPathOf!(i)),
          );
          if (overwritten?.length) await requireOnEach(request, 'delete', to.repoKey, overwritten);
        },
        options,
      );
    },

    async changeProperties(target, change) {
      await requirePermission(request, 'annotate', target.repoKey, target.path);
      // a property can place a file in an index (`deb.distribution`): the format's rules apply to it there
      await request.server.formats.admit(content, await repositoryOrTrash(db, target.repoKey), async () => {
        const items = target.recursive
          ? await findSubtree(db, target.repoKey, target.path)
          : [await findItem(db, target.repoKey, target.path)].filter((i) => i !== undefined);
        return Promise.all(
          items
            .filter((item) => item.folder === 0)
            .map(async (item) => {
              const properties = await propertiesOf(db, item.id);
              for (const key of change.remove ?? []) delete properties[key];
              return { path: item.path, properties: { ...properties, ...change.set }, read: () => content.read(item) };
            }),
        );
      });
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

    emptyTrash: () => emptyTrash(ctx, { actor, sourceIp: request.ip ?? '' }),

    async allowedActions(repo, path) {
      await requirePermission(request, 'read', repo.key, path);
      const may = (action: PermissionAction, repoKey: string, p: string) =>
        isAllowed(db, principal, action, repoKey, p);
      const allowed: ItemActionName[] = ['read'];
      const reasons: Record<string, string> = {};
      const decide = async (name: ItemActionName, ok: boolean | Promise<boolean>, reason: string) => {
        if (await ok) allowed.push(name);
        else reasons[name] = reason;
      };
      const refused = (action: string, repoKey: string, p: string) =>
        `You do not have ${action} permission on ${where(repoKey, p)}.`;
      if (repo.key === TRASHCAN_REPO) {
        const [origin = '', ...rest] = path.split('/');
        const originPath = rest.join('/');
        await decide('delete', path !== '' && may('delete', repo.key, path), refused('delete', origin, originPath));
        await decide(
          'restore',
          path !== '' && (await may('delete', repo.key, path)) && may('deploy', origin, originPath),
          refused('deploy', origin, originPath),
        );
        await decide('emptyTrash', isAdmin(request), 'Only administrators can empty the trash can.');
        return { allowed, reasons };
      }
      if (repo.rclass === 'remote') reasons.deploy = fill(ARTIFACT_MESSAGES.remoteDeploy, { key: repo.key });
      else {
        const target = repo.rclass === 'virtual' ? await deployTarget(db, repo).catch(() => undefined) : repo;
        if (!target) reasons.deploy = fill(ARTIFACT_MESSAGES.virtualNoTarget, { key: repo.key });
        else await decide('deploy', may('deploy', target.key, path), refused('deploy', target.key, path));
      }
      const local = repo.rclass !== 'virtual';
      const virtualReason = 'Items of a virtual repository are changed in the repository that holds them.';
      await decide(
        'annotate',
        local && may('annotate', repo.key, path),
        local ? refused('annotate', repo.key, path) : virtualReason,
      );
      await decide(
        'delete',
        local && may('delete', repo.key, path),
        local ? refused('delete', repo.key, path) : virtualReason,
      );
      const targets = path ? await content.copyTargets(repo, path) : [];
      const noTarget = `No local ${repo.package_type} repository where you may deploy.`;
      await decide('copy', local && path !== '' && targets.length > 0, !local ? virtualReason : noTarget);
      await decide(
        'move',
        local && path !== '' && targets.length > 0 && allowed.includes('delete'),
        !local ? virtualReason : targets.length ? refused('delete', repo.key, path) : noTarget,
      );
      return { allowed, reasons };
    },

    async copyTargets(repo, path) {
      const answer: RepositoryRow[] = [];
      for (const candidate of await listRepositories(db)) {
        if (candidate.rclass !== 'local' || candidate.package_type !== repo.package_type) continue;
        if (await isAllowed(db, principal, 'deploy', candidate.key, path)) answer.push(candidate);
      }
      return answer;
    },
    async repositories(filter = {}) {
      return (await listRepositories(db)).filter(
        (r) =>
          (filter.rclass === undefined || r.rclass === filter.rclass) &&
          (filter.packageTypes === undefined || filter.packageTypes.includes(r.package_type)),
      );
    },
    async send(reply, item) {
      await content.admit(item);
      return sendItem(request, reply, item);
    },
    async admit(item) {
      const blocked = await doorPorts.downloadBlock(item);
      if (blocked) throw downloadBlocked(blocked);
    },
    locate: (sha1s, options) => filesBySha1(db, sha1s, options),
    mayRead: (repoKey, path, options) =>
      isAllowed(db, options?.anonymous ? { kind: 'anonymous' } : principal, 'read', repoKey, path),
    signer: (repo) => doorPorts.metadataSigner(repo.key),
    advisories: (ecosystem, packages) => doorPorts.advisories(ecosystem, packages),
    get signIn() {
      return doorPorts.clientSignIn(request);
    },
  };
  return content;
}

/**
 * The door as the server itself uses it: an administrator's view, for indexing the catalogue and
 * for the metadata a format calculates (Maven's `maven-metadata.xml`). Never handed to a request.
 */
export function systemContent(app: FastifyInstance): RepoContent {
  const system = {
    kind: 'user',
    user: { id: '_system', name: '_system', admin: 1 },
    sessionId: null,
    via: 'token',
  } as unknown as Principal;
  return repoContent({ server: app, principal: system, log: app.log } as unknown as FastifyRequest);
}
