import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ARTIFACT_MESSAGES,
  TRASHCAN_REPO,
  VIEW_MAX_BYTES,
  archiveEntrySchema,
  archiveViewSourceBodySchema,
  copyMoveBodySchema,
  itemCreatedSchema,
  itemInfoSchema,
  itemRefSchema,
  propertiesBodySchema,
  propertiesSchema,
  restoreBodySchema,
  storageSummarySchema,
  treeChildrenQuerySchema,
  treeChildrenSchema,
  treeReposQuerySchema,
  treeRepoSchema,
  viewSourceSchema,
  type ItemInfo,
  type TreeNode,
} from '@arca/contracts';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';
import { normalizeItemPath } from '../../core/artifact-path.js';
import { badRequest, notFound } from '../../core/errors.js';
import { isAdmin } from '../../core/principals.js';
import { actorName, isAllowed, readFilter, requirePermission, type ReadFilter } from '../../core/permissions.js';
import { listRepositories, usageByRepository } from '../repositories/repositories.store.js';
import { archiveKind, listArchive, readArchiveEntry } from './artifacts.archive.js';
import { artifactContext, sendItem } from './artifacts.http.js';
import { resolveItem } from './artifacts.resolve.js';
import {
  TRASHCAN_ROW,
  checksumsOf,
  copyOrMove,
  changeItemProperties,
  deploy,
  emptyTrash,
  removeItem,
  repositoryOrTrash,
  restoreFromTrash,
  virtualMembers,
  type ArtifactContext,
} from './artifacts.service.js';
import {
  countChildren,
  findSubtree,
  listChildren,
  propertiesOf,
  repositoryHasChildren,
  subtreeStats,
} from './artifacts.store.js';

const iso = (ms: number) => new Date(ms).toISOString();

function repoKind(repo: RepositoryRow): 'local' | 'remote' | 'virtual' | 'trashcan' {
  if (repo.key === TRASHCAN_REPO) return 'trashcan';
  return repo.rclass as 'local' | 'remote' | 'virtual';
}

function toNode(row: ItemRow): TreeNode {
  return {
    name: row.name,
    path: row.path,
    type: row.folder === 1 ? 'folder' : archiveKind(row.name) ? 'archive' : 'file',
    size: Number(row.size),
    lastModified: iso(row.modified_at),
  };
}

/** Children of a folder; a virtual repository merges its members' (first member wins a name). */
async function childrenOf(
  app: FastifyInstance,
  repo: RepositoryRow,
  path: string,
  offset: number,
  limit: number,
  visible: ReadFilter,
) {
  if (visible) {
    // only part of the repository is readable: filter the whole level, then page
    const all = (await allChildren(app, repo, path)).filter((row) => visible(row.path, row.folder === 1));
    return { items: all.slice(offset, offset + limit).map(toNode), total: all.length, offset };
  }
  if (repo.rclass !== 'virtual') {
    const [rows, total] = await Promise.all([
      listChildren(app.db, repo.key, path, offset, limit),
      countChildren(app.db, repo.key, path),
    ]);
    return { items: rows.map(toNode), total, offset };
  }
  const all = await allChildren(app, repo, path);
  return { items: all.slice(offset, offset + limit).map(toNode), total: all.length, offset };
}

/** Every child of a folder, virtual repositories merged (first member wins), folders first. */
async function allChildren(app: FastifyInstance, repo: RepositoryRow, path: string): Promise<ItemRow[]> {
  if (repo.rclass !== 'virtual') return listChildren(app.db, repo.key, path, 0, 100_000);
  const merged = new Map<string, ItemRow>();
  for (const member of await virtualMembers(app.db, repo)) {
    for (const row of await listChildren(app.db, member.key, path, 0, 10_000))
      if (!merged.has(row.name)) merged.set(row.name, row);
  }
  return [...merged.values()].sort((a, b) => b.folder - a.folder || a.name.localeCompare(b.name));
}

/** Counts below a path; with a read filter, only what the caller may read counts. */
async function statsOf(app: FastifyInstance, visible: ReadFilter, repoKey: string, path: string) {
  if (!visible) return subtreeStats(app.db, repoKey, path);
  const stats = { files: 0, folders: 0, size: 0 };
  for (const row of await findSubtree(app.db, repoKey, path)) {
    if (row.path === path || !visible(row.path, row.folder === 1)) continue;
    if (row.folder === 1) stats.folders += 1;
    else {
      stats.files += 1;
      stats.size += Number(row.size);
    }
  }
  return stats;
}

async function describeItem(
  app: FastifyInstance,
  ctx: ArtifactContext,
  repo: RepositoryRow,
  path: string,
): Promise<ItemInfo> {
  const repoType = repoKind(repo);
  const common = { repoKey: repo.key, pkgType: repo.package_type, repoType };
  if (!path) {
    const stats = await statsOf(app, ctx.visible ?? null, repo.key, '');
    return {
      ...common,
      path: '',
      name: repo.key,
      type: 'repository',
      size: stats.size,
      created: iso(repo.created_at),
      createdBy: null,
      lastModified: iso(repo.updated_at),
      modifiedBy: null,
      mimeType: null,
      checksums: null,
      downloadUri: null,
      files: stats.files,
      folders: stats.folders,
      trash: null,
    };
  }
  const found = await resolveItem(ctx, repo, path);
  if (!found) throw notFound();
  const { item } = found;
  const properties = repo.key === TRASHCAN_REPO ? await propertiesOf(app.db, item.id) : {};
  const trash =
    repo.key === TRASHCAN_REPO && properties['trash.originalRepository']
      ? {
          originalRepository: properties['trash.originalRepository'][0]!,
          originalPath: properties['trash.originalPath']?.[0] ?? '',
          deletedBy: properties['trash.deletedBy']?.[0] ?? '',
          deletedAt: iso(Number(properties['trash.time']?.[0] ?? 0)),
        }
      : null;
  if (item.folder === 1) {
    const stats = await statsOf(app, ctx.visible ?? null, found.repo.key, item.path);
    return {
      ...common,
      path: item.path,
      name: item.name,
      type: 'folder',
      size: stats.size,
      created: iso(item.created_at),
      createdBy: item.created_by,
      lastModified: iso(item.modified_at),
      modifiedBy: item.modified_by,
      mimeType: null,
      checksums: null,
      downloadUri: null,
      files: stats.files,
      folders: stats.folders,
      trash,
    };
  }
  return {
    ...common,
    path: item.path,
    name: item.name,
    type: archiveKind(item.name) ? 'archive' : 'file',
    size: Number(item.size),
    created: iso(item.created_at),
    createdBy: item.created_by,
    lastModified: iso(item.modified_at),
    modifiedBy: item.modified_by,
    mimeType: item.mime_type,
    checksums: await checksumsOf(app.db, item.sha256!),
    downloadUri: `${ctx.baseUrl}/artifactory/${repo.key}/${item.path.split('/').map(encodeURIComponent).join('/')}`,
    files: null,
    folders: null,
    trash,
  };
}

const refQuery = itemRefSchema.transform((ref) => ({ repoKey: ref.repoKey, path: normalizeItemPath(ref.path) }));

/** Uploads from the console's deploy dialog: the raw body is the file. */
async function uploadRoute(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  app.put(
    '/ui/artifact/upload',
    { config: { access: 'user' }, schema: { querystring: refQuery, response: { 201: itemCreatedSchema } } },
    async (request, reply) => {
      const { repoKey, path } = request.query;
      const repo = await repositoryOrTrash(app.db, repoKey);
      await requirePermission(request, 'deploy', repoKey, path);
      const length = request.headers['content-length'];
      const created = await deploy(artifactContext(request), {
        repo,
        path,
        properties: {},
        body: request.raw,
        contentLength: length === undefined ? undefined : Number(length),
        checksums: {},
        checksumDeploy: false,
        actor: actorName(request.principal),
      });
      return reply.status(201).send(created);
    },
  );
}

/** The tree browser and artifact actions of the console (spec part 2 §7.9–7.10). */
export const artifactsConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(uploadRoute);

  app.get(
    '/ui/treebrowser/repos',
    {
      config: { access: 'public' },
      schema: { querystring: treeReposQuerySchema, response: { 200: z.array(treeRepoSchema) } },
    },
    async (request) => {
      const { repo_type: type, repo_key: key, pkg_type: pkg } = request.query;
      const rows = [...(await listRepositories(app.db)), ...(isAdmin(request) ? [TRASHCAN_ROW] : [])];
      const answer = [];
      for (const repo of rows) {
        const kind = repoKind(repo);
        if (type && type !== kind) continue;
        if (key && !repo.key.toLowerCase().includes(key.toLowerCase())) continue;
        if (pkg && repo.package_type !== pkg) continue;
        if (!(await isAllowed(app.db, request.principal, 'read', repo.key, ''))) continue;
        const hasChildren =
          repo.rclass === 'virtual'
            ? (
                await Promise.all((await virtualMembers(app.db, repo)).map((m) => repositoryHasChildren(app.db, m.key)))
              ).some(Boolean)
            : await repositoryHasChildren(app.db, repo.key);
        answer.push({
          repoKey: repo.key,
          repoType: kind,
          pkgType: repo.package_type,
          description: repo.description,
          hasChildren,
        });
      }
      return answer;
    },
  );

  app.get(
    '/ui/treebrowser/children',
    {
      config: { access: 'public' },
      schema: { querystring: treeChildrenQuerySchema, response: { 200: treeChildrenSchema } },
    },
    async (request) => {
      const path = normalizeItemPath(request.query.path);
      const repo = await repositoryOrTrash(app.db, request.query.repoKey);
      await requirePermission(request, 'read', repo.key, path);
      const visible = await readFilter(app.db, request.principal, repo.key);
      return childrenOf(app, repo, path, request.query.offset, request.query.limit, visible);
    },
  );

  app.get(
    '/ui/artifactgeneral',
    { config: { access: 'public' }, schema: { querystring: refQuery, response: { 200: itemInfoSchema } } },
    async (request) => {
      const repo = await repositoryOrTrash(app.db, request.query.repoKey);
      await requirePermission(request, 'read', repo.key, request.query.path);
      const visible = await readFilter(app.db, request.principal, repo.key);
      return describeItem(app, { ...artifactContext(request), visible }, repo, request.query.path);
    },
  );

  app.get(
    '/ui/artifactproperties',
    { config: { access: 'public' }, schema: { querystring: refQuery, response: { 200: propertiesSchema } } },
    async (request) => {
      const repo = await repositoryOrTrash(app.db, request.query.repoKey);
      await requirePermission(request, 'read', repo.key, request.query.path);
      const found = await resolveItem(artifactContext(request), repo, request.query.path);
      if (!found) throw notFound();
      return propertiesOf(app.db, found.item.id);
    },
  );

  app.post(
    '/ui/artifactproperties',
    { config: { access: 'user' }, schema: { body: propertiesBodySchema } },
    async (request, reply) => {
      const { repoKey, key, values, recursive } = request.body;
      const path = normalizeItemPath(request.body.path);
      await requirePermission(request, 'annotate', repoKey, path);
      await changeItemProperties(
        artifactContext(request),
        { repoKey, path, recursive },
        { set: { [key]: values } },
        actorName(request.principal),
      );
      return reply.status(204).send();
    },
  );

  app.delete(
    '/ui/artifactproperties',
    {
      config: { access: 'user' },
      schema: {
        querystring: itemRefSchema.extend({
          key: z.string().min(1),
          recursive: z.enum(['true', 'false']).default('false'),
        }),
      },
    },
    async (request, reply) => {
      const path = normalizeItemPath(request.query.path);
      await requirePermission(request, 'annotate', request.query.repoKey, path);
      await changeItemProperties(
        artifactContext(request),
        { repoKey: request.query.repoKey, path, recursive: request.query.recursive === 'true' },
        { remove: [request.query.key] },
        actorName(request.principal),
      );
      return reply.status(204).send();
    },
  );

  app.post(
    '/ui/artifactactions/delete',
    { config: { access: 'user' }, schema: { body: itemRefSchema } },
    async (request, reply) => {
      const path = normalizeItemPath(request.body.path);
      if (!path) throw badRequest(ARTIFACT_MESSAGES.pathEmpty);
      await requirePermission(request, 'delete', request.body.repoKey, path);
      await removeItem(artifactContext(request), request.body.repoKey, path, actorName(request.principal));
      return reply.status(204).send();
    },
  );

  for (const mode of ['copy', 'move'] as const) {
    app.post(
      `/ui/artifactactions/${mode}`,
      { config: { access: 'user' }, schema: { body: copyMoveBodySchema } },
      async (request) => {
        const from = { repoKey: request.body.repoKey, path: normalizeItemPath(request.body.path) };
        const to = {
          repoKey: request.body.targetRepoKey,
          path: normalizeItemPath(request.body.targetPath) || from.path,
        };
        await requirePermission(request, mode === 'move' ? 'delete' : 'read', from.repoKey, from.path);
        await requirePermission(request, 'deploy', to.repoKey, to.path);
        const files = await copyOrMove(artifactContext(request), mode, from, to, actorName(request.principal));
        return { files, repoKey: to.repoKey, path: to.path };
      },
    );
  }

  app.post(
    '/ui/artifactactions/restore',
    { config: { access: 'user' }, schema: { body: restoreBodySchema } },
    async (request) => {
      const trashPath = normalizeItemPath(request.body.path);
      await requirePermission(request, 'delete', TRASHCAN_REPO, trashPath);
      const to = request.body.targetRepoKey
        ? { repoKey: request.body.targetRepoKey, path: normalizeItemPath(request.body.targetPath ?? '') }
        : undefined;
      return restoreFromTrash(artifactContext(request), trashPath, to, actorName(request.principal));
    },
  );

  app.post('/ui/artifactactions/emptytrash', { config: { access: 'admin' } }, async (request) => ({
    files: await emptyTrash(artifactContext(request), actorName(request.principal)),
  }));

  app.post(
    '/ui/artifactactions/view',
    { config: { access: 'public' }, schema: { body: itemRefSchema, response: { 200: viewSourceSchema } } },
    async (request) => {
      const path = normalizeItemPath(request.body.path);
      const repo = await repositoryOrTrash(app.db, request.body.repoKey);
      await requirePermission(request, 'read', repo.key, path);
      const found = await resolveItem(artifactContext(request), repo, path);
      if (!found || found.item.folder === 1) throw notFound();
      const size = Number(found.item.size);
      const stream = app.binaries.read(
        found.item.sha256!,
        size > 0 ? { start: 0, end: Math.min(size, VIEW_MAX_BYTES) - 1 } : undefined,
      );
      const chunks: Buffer[] = [];
      if (size > 0) for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
      else stream.destroy();
      const buffer = Buffer.concat(chunks);
      if (buffer.includes(0)) throw badRequest(ARTIFACT_MESSAGES.notText);
      return { fileContent: buffer.toString('utf8'), truncated: size > VIEW_MAX_BYTES };
    },
  );

  app.get(
    '/ui/archive/entries',
    { config: { access: 'public' }, schema: { querystring: refQuery, response: { 200: z.array(archiveEntrySchema) } } },
    async (request) => {
      const repo = await repositoryOrTrash(app.db, request.query.repoKey);
      await requirePermission(request, 'read', repo.key, request.query.path);
      const found = await resolveItem(artifactContext(request), repo, request.query.path);
      if (!found || found.item.folder === 1) throw notFound();
      return listArchive(app.binaries, found.item.sha256!, found.item.name);
    },
  );

  app.post(
    '/ui/archiveViewSource',
    {
      config: { access: 'public' },
      schema: { body: archiveViewSourceBodySchema, response: { 200: viewSourceSchema } },
    },
    async (request) => {
      const path = normalizeItemPath(request.body.archivePath);
      const repo = await repositoryOrTrash(app.db, request.body.repoKey);
      await requirePermission(request, 'read', repo.key, path);
      const found = await resolveItem(artifactContext(request), repo, path);
      if (!found || found.item.folder === 1) throw notFound();
      return readArchiveEntry(app.binaries, found.item.sha256!, found.item.name, request.body.sourcePath);
    },
  );

  app.get('/download', { config: { access: 'public' }, schema: { querystring: refQuery } }, async (request, reply) => {
    const repo = await repositoryOrTrash(app.db, request.query.repoKey);
    await requirePermission(request, 'read', repo.key, request.query.path);
    const found = await resolveItem(artifactContext(request), repo, request.query.path);
    if (!found || found.item.folder === 1) throw notFound();
    return sendItem(request, reply, found.item);
  });

  app.get(
    '/ui/storagesummary',
    { config: { access: 'admin' }, schema: { response: { 200: storageSummarySchema } } },
    async () => {
      const [repos, usage, binaries] = await Promise.all([
        listRepositories(app.db),
        usageByRepository(app.db),
        app.db
          .selectFrom('binaries')
          .select((eb) => [
            eb.fn.countAll<number | string>().as('n'),
            eb.fn.sum<number | string | null>('size').as('size'),
          ])
          .where('ref_count', '>', 0)
          .executeTakeFirstOrThrow(),
      ]);
      let artifactsCount = 0;
      let artifactsSize = 0;
      let itemsCount = 0;
      for (const entry of usage.values()) {
        artifactsCount += entry.files;
        artifactsSize += entry.size;
        itemsCount += entry.files + entry.folders;
      }
      const binariesSize = Number(binaries.size ?? 0);
      const rows = [...repos, TRASHCAN_ROW].map((repo) => {
        const u = usage.get(repo.key) ?? { files: 0, folders: 0, size: 0 };
        return {
          repoKey: repo.key,
          repoType: repoKind(repo),
          packageType: repo.package_type,
          filesCount: u.files,
          foldersCount: u.folders,
          usedSpace: u.size,
          percentage: artifactsSize ? Math.round((u.size / artifactsSize) * 10_000) / 100 : 0,
        };
      });
      return {
        binariesCount: Number(binaries.n),
        binariesSize,
        artifactsCount,
        artifactsSize,
        optimization: artifactsSize ? Math.round((1 - binariesSize / artifactsSize) * 10_000) / 100 : 0,
        itemsCount,
        repositories: rows,
      };
    },
  );
};
