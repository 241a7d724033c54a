import { Transform, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { getSetting } from '../../core/settings.store.js';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ALL_PROJECTS_CONTEXT,
  ARTIFACT_MESSAGES,
  VIEW_MAX_BYTES,
  archiveEntrySchema,
  archiveViewSourceBodySchema,
  copyMoveBodySchema,
  deleteRepositoryBodySchema,
  deployQuerySchema,
  bundleQuerySchema,
  bundleDeployedSchema,
  repositoryDeletionSchema,
  copyTargetSchema,
  effectiveActionsSchema,
  copyMoveReportSchema,
  itemCreatedSchema,
  itemInfoSchema,
  itemRefSchema,
  propertiesBodySchema,
  projectScopeSchema,
  propertiesSchema,
  restoreBodySchema,
  storageSummarySchema,
  storageGrowthQuerySchema,
  storageGrowthSchema,
  largestFoldersQuerySchema,
  largestFoldersSchema,
  treeChildrenQuerySchema,
  treeChildrenSchema,
  treeReposQuerySchema,
  treeRepoSchema,
  viewSourceSchema,
  GENERAL_DEFAULTS,
  SETTINGS_MESSAGES,
  formatMessage,
} from '@arca/contracts';
import { normalizeItemPath, parseRequestPath } from '../../core/artifact-path.js';
import { deployBundle } from './artifacts.bundle.js';
import { HttpError, badRequest, conflict, notFound } from '../../core/errors.js';
import { isAllowed, requirePermission } from '../../core/permissions.js';
import { isAdmin } from '../../core/principals.js';
import { findRepository, listRepositories } from '../repositories/index.js';
import { auditActor } from '../../core/audit.js';
import { startDownloadStats } from './artifacts.stats.js';
import { deleteRepositoryWithContent, repositoryDeletion } from './artifacts.purge.js';
import { listArchive, readArchiveEntry } from './artifacts.archive.js';
import { describeItem, repoKind, treeChildren } from './artifacts.browse.js';
import { repoContent } from './artifacts.content.js';
import { baseUrlOf, sendItem } from './artifacts.http.js';
import { TRASHCAN_ROW } from './artifacts.items.js';
import { virtualMembers } from './artifacts.service.js';
import { largestFolders, storageGrowth, storageSummary } from './artifacts.usage.js';
import { folderArchive, sendFolderArchive } from './artifacts.folder-download.js';
import { repositoryHasChildren } from './artifacts.store.js';
import { itemCreated } from './artifacts.uris.js';

const refQuery = itemRefSchema.transform((ref) => ({ repoKey: ref.repoKey, path: normalizeItemPath(ref.path) }));
/** Matrix parameters (`;key=a,b;other=c`) as properties, read as the REST deploy reads them. */
const matrixProperties = (text: string) => (text ? parseRequestPath(`x;${text.replace(/^;+/, '')}`).properties : {});
/** A path checked as every path is (no traversal): a refusal is a 400 with the reason. */
function checkedPath(path: string, ctx: z.RefinementCtx): string {
  try {
    return normalizeItemPath(path);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message, path: ['path'] });
    return z.NEVER;
  }
}
const deployQuery = deployQuerySchema.transform((q, ctx) => ({
  repoKey: q.repoKey,
  path: checkedPath(q.path, ctx),
  properties: matrixProperties(q.properties),
}));
const bundleQuery = bundleQuerySchema.transform((q, ctx) => ({
  repoKey: q.repoKey,
  path: checkedPath(q.path, ctx),
  properties: matrixProperties(q.properties),
  name: q.name,
}));

/**
 * The body of a console upload within the general settings' upload limit: refused at once when
 * its declared length is over, cut with the same error when more arrives than the limit allows
 * (the deploy then leaves nothing).
 */
async function limitedUpload(request: FastifyRequest): Promise<Readable> {
  const mb =
    (await getSetting(request.server.db, 'general')).fileUploadMaxSizeMb ?? GENERAL_DEFAULTS.fileUploadMaxSizeMb;
  if (!mb) return request.raw;
  const limit = mb * 1024 * 1024;
  const tooLarge = () => new HttpError(413, formatMessage(SETTINGS_MESSAGES.uploadTooLarge, { mb: String(mb) }));
  const length = Number(request.headers['content-length']);
  if (Number.isFinite(length) && length > limit) throw tooLarge();
  let seen = 0;
  return request.raw.pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        callback(seen > limit ? tooLarge() : null, chunk);
      },
    }),
  );
}

/** Uploads from the console's deploy dialog: the raw body is the file. */
async function uploadRoute(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  app.put(
    '/ui/artifact/upload',
    { config: { access: 'user' }, schema: { querystring: deployQuery, response: { 201: itemCreatedSchema } } },
    async (request, reply) => {
      const { repoKey, path, properties } = request.query;
      const length = request.headers['content-length'];
      const deployed = await repoContent(request).deploy({
        repoKey,
        path,
        properties,
        body: await limitedUpload(request),
        contentLength: length === undefined ? undefined : Number(length),
        checksums: {},
        checksumDeploy: false,
      });
      return reply.status(201).send(itemCreated(baseUrlOf(request), deployed));
    },
  );
  // an archive deployed as a bundle: its files land under the path
  app.put(
    '/ui/artifact/upload/bundle',
    {
      config: { access: 'user' },
      schema: { querystring: bundleQuery, response: { 201: bundleDeployedSchema } },
    },
    async (request, reply) => {
      const { repoKey, path, properties, name } = request.query;
      const { files } = await deployBundle(repoContent(request), {
        repoKey,
        folder: path,
        archiveName: name,
        body: await limitedUpload(request),
        properties,
      });
      return reply.status(201).send({ repo: repoKey, path, files });
    },
  );
}

const NO_FIGURES = { files: 0, bytes: 0, deletedFiles: 0, deletedBytes: 0, message: null };

/** The tree browser and artifact actions of the console (spec part 2 §7.9–7.10). */
export const artifactsConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(uploadRoute);
  startDownloadStats(app);

  // deleting a repository with what it holds is the content's owner's job
  app.post(
    '/ui/admin/repositories/:key/delete',
    {
      config: { access: 'admin' },
      schema: {
        params: z.object({ key: z.string().min(1).max(64) }),
        body: deleteRepositoryBodySchema,
        response: { 200: repositoryDeletionSchema, 202: repositoryDeletionSchema },
      },
    },
    async (request, reply) => {
      const progress = await deleteRepositoryWithContent(
        app.db,
        app.work,
        request.params.key,
        request.body.confirmKey,
        auditActor(request),
      );
      if (progress.state === 'failed') throw conflict(progress.message ?? 'The repository could not be deleted.');
      return reply.status(progress.state === 'running' ? 202 : 200).send(progress);
    },
  );

  app.get(
    '/ui/admin/repositories/:key/delete',
    {
      config: { access: 'admin' },
      schema: { params: z.object({ key: z.string().min(1) }), response: { 200: repositoryDeletionSchema } },
    },
    async (request) => {
      const progress = await repositoryDeletion(app.work, request.params.key);
      if (progress) return progress;
      // deleted long ago (its progress forgotten), or never asked to be
      if (await findRepository(app.db, request.params.key))
        throw notFound(`No deletion of '${request.params.key}' is under way.`);
      return { ...NO_FIGURES, key: request.params.key, state: 'done' as const };
    },
  );

  app.get(
    '/ui/treebrowser/repos',
    {
      config: { access: 'public' },
      schema: { querystring: treeReposQuerySchema, response: { 200: z.array(treeRepoSchema) } },
    },
    async (request) => {
      const { repo_type: type, repo_key: key, pkg_type: pkg, projectKey } = request.query;
      const scoped = projectKey !== undefined && projectKey !== ALL_PROJECTS_CONTEXT.key;
      const rows = [
        ...(await listRepositories(app.db)).filter((r) => !scoped || r.project_key === projectKey),
        ...(isAdmin(request) && !scoped ? [TRASHCAN_ROW] : []),
      ];
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
      const content = repoContent(request);
      const repo = await content.repository(request.query.repoKey);
      await requirePermission(request, 'read', repo.key, path);
      return treeChildren(app.db, content, repo, path, request.query);
    },
  );

  app.get(
    '/ui/artifactgeneral',
    { config: { access: 'public' }, schema: { querystring: refQuery, response: { 200: itemInfoSchema } } },
    async (request) => {
      const content = repoContent(request);
      const repo = await content.repository(request.query.repoKey);
      return describeItem(app.db, content, baseUrlOf(request), repo, request.query.path);
    },
  );

  app.get(
    '/ui/artifactproperties',
    { config: { access: 'public' }, schema: { querystring: refQuery, response: { 200: propertiesSchema } } },
    async (request) => {
      const content = repoContent(request);
      const found = await content.resolve(request.query.repoKey, request.query.path);
      if (!found) throw notFound();
      return content.properties(found.item);
    },
  );

  app.post(
    '/ui/artifactproperties',
    { config: { access: 'user' }, schema: { body: propertiesBodySchema } },
    async (request, reply) => {
      const { repoKey, key, values, recursive } = request.body;
      const path = normalizeItemPath(request.body.path);
      await repoContent(request).changeProperties({ repoKey, path, recursive }, { set: { [key]: values } });
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
      await repoContent(request).changeProperties(
        { repoKey: request.query.repoKey, path, recursive: request.query.recursive === 'true' },
        { remove: [request.query.key] },
      );
      return reply.status(204).send();
    },
  );

  app.get(
    '/ui/artifactactions/allowed',
    { config: { access: 'public' }, schema: { querystring: refQuery, response: { 200: effectiveActionsSchema } } },
    async (request) => {
      const content = repoContent(request);
      return content.allowedActions(await content.repository(request.query.repoKey), request.query.path);
    },
  );

  app.get(
    '/ui/artifactactions/targets',
    {
      config: { access: 'user' },
      schema: { querystring: refQuery, response: { 200: z.array(copyTargetSchema) } },
    },
    async (request) => {
      const content = repoContent(request);
      const repo = await content.repository(request.query.repoKey);
      await requirePermission(request, 'read', repo.key, request.query.path);
      return (await content.copyTargets(repo, request.query.path)).map((r) => ({
        repoKey: r.key,
        pkgType: r.package_type,
        description: r.description,
      }));
    },
  );

  app.post(
    '/ui/artifactactions/delete',
    { config: { access: 'user' }, schema: { body: itemRefSchema } },
    async (request, reply) => {
      const path = normalizeItemPath(request.body.path);
      if (!path) throw badRequest(ARTIFACT_MESSAGES.pathEmpty);
      await repoContent(request).remove(request.body.repoKey, path);
      return reply.status(204).send();
    },
  );

  for (const mode of ['copy', 'move'] as const) {
    app.post(
      `/ui/artifactactions/${mode}`,
      { config: { access: 'user' }, schema: { body: copyMoveBodySchema, response: { 200: copyMoveReportSchema } } },
      async (request) => {
        const { dryRun, conflicts } = request.body;
        const from = { repoKey: request.body.repoKey, path: normalizeItemPath(request.body.path) };
        const to = {
          repoKey: request.body.targetRepoKey,
          path: normalizeItemPath(request.body.targetPath) || from.path,
        };
        const result = await repoContent(request).copyOrMove(mode, from, to, { dryRun, conflicts });
        return { ...result, dryRun, repoKey: to.repoKey, path: to.path };
      },
    );
  }

  app.post(
    '/ui/artifactactions/restore',
    { config: { access: 'user' }, schema: { body: restoreBodySchema } },
    async (request) => {
      const trashPath = normalizeItemPath(request.body.path);
      const to = request.body.targetRepoKey
        ? { repoKey: request.body.targetRepoKey, path: normalizeItemPath(request.body.targetPath ?? '') }
        : undefined;
      return repoContent(request).restore(trashPath, to);
    },
  );

  app.post('/ui/artifactactions/emptytrash', { config: { access: 'admin' } }, async (request) => ({
    files: await repoContent(request).emptyTrash(),
  }));

  app.post(
    '/ui/artifactactions/view',
    { config: { access: 'public' }, schema: { body: itemRefSchema, response: { 200: viewSourceSchema } } },
    async (request) => {
      const path = normalizeItemPath(request.body.path);
      const content = repoContent(request);
      const found = await content.resolve(request.body.repoKey, path);
      if (!found || found.item.folder === 1) throw notFound();
      const size = Number(found.item.size);
      const stream = content.open(
        found.item,
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
      const found = await repoContent(request).resolve(request.query.repoKey, request.query.path);
      if (!found || found.item.folder === 1) throw notFound();
      return listArchive(app.binaries, found.item.sha256!, Number(found.item.size), found.item.name);
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
      const found = await repoContent(request).resolve(request.body.repoKey, path);
      if (!found || found.item.folder === 1) throw notFound();
      return readArchiveEntry(
        app.binaries,
        found.item.sha256!,
        Number(found.item.size),
        found.item.name,
        request.body.sourcePath,
      );
    },
  );

  // the tree's folder download: the same archive as /api/archive/download, for the console's session
  app.get(
    '/ui/artifactactions/downloadfolder',
    {
      config: { access: 'public' },
      schema: { querystring: itemRefSchema.extend({ archiveType: z.string().default('zip') }) },
    },
    async (request, reply) => {
      const path = request.query.path ? normalizeItemPath(request.query.path) : '';
      const archive = await folderArchive(repoContent(request), request.query.repoKey, path, request.query.archiveType);
      return sendFolderArchive(reply, archive);
    },
  );

  app.get('/download', { config: { access: 'public' }, schema: { querystring: refQuery } }, async (request, reply) => {
    const found = await repoContent(request).resolve(request.query.repoKey, request.query.path);
    if (!found || found.item.folder === 1) throw notFound();
    return sendItem(request, reply, found.item);
  });

  app.get(
    '/ui/storagesummary',
    {
      config: { access: 'admin' },
      schema: { querystring: projectScopeSchema, response: { 200: storageSummarySchema } },
    },
    async (request) => storageSummary(app.db, request.query.projectKey),
  );
  app.get(
    '/ui/storagesummary/growth',
    {
      config: { access: 'admin' },
      schema: { querystring: storageGrowthQuerySchema, response: { 200: storageGrowthSchema } },
    },
    async (request) => storageGrowth(app.db, request.query.days, request.query.projectKey),
  );
  app.get(
    '/ui/storagesummary/folders',
    {
      config: { access: 'admin' },
      schema: { querystring: largestFoldersQuerySchema, response: { 200: largestFoldersSchema } },
    },
    async (request) => {
      if (!(await findRepository(app.db, request.query.repoKey))) {
        throw notFound(`There is no repository '${request.query.repoKey}'.`);
      }
      return largestFolders(app.db, request.query.repoKey, request.query.limit);
    },
  );
};
