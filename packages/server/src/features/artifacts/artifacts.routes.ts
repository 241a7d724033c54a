import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ARTIFACT_MESSAGES, TRASHCAN_REPO, type Properties } from '@arca/contracts';
import { normalizeItemPath } from '../../core/artifact-path.js';
import { HttpError, badRequest } from '../../core/errors.js';
import { auditActor } from '../../core/audit.js';
import { deleteRepositoryWithContent } from './artifacts.purge.js';
import { flushDownloads } from './artifacts.stats.js';
import { repoContent } from './artifacts.content.js';
import { baseUrlOf, repoAndPath } from './artifacts.http.js';
import { storageInfo } from './artifacts.storage-api.js';
import { artifactoryStorageInfo } from './artifacts.usage.js';
import { folderArchive, sendFolderArchive } from './artifacts.folder-download.js';

/** `/{repoKey}/{path}` of a `to` parameter. */
export function parseTarget(to: string | undefined): { repoKey: string; path: string } {
  if (!to) throw badRequest(ARTIFACT_MESSAGES.toRequired);
  const trimmed = to.replace(/^\/+/, '');
  const slash = trimmed.indexOf('/');
  const repoKey = slash < 0 ? trimmed : trimmed.slice(0, slash);
  if (!repoKey) throw badRequest(ARTIFACT_MESSAGES.toRequired);
  return { repoKey, path: normalizeItemPath(slash < 0 ? '' : trimmed.slice(slash + 1)) };
}

/** `a=1,2;b=3` → { a: ['1','2'], b: ['3'] } (the storage API's properties parameter). */
export function parsePropertiesParam(text: string): Properties {
  const properties: Properties = {};
  for (const pair of text.split(';')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = (eq < 0 ? pair : pair.slice(0, eq)).trim();
    if (!key) continue;
    properties[key] = eq < 0 ? [''] : pair.slice(eq + 1).split(',');
  }
  return properties;
}

const flag = (value: string | undefined) => value !== undefined && value !== '0' && value !== 'false';

const storageQuery = z.object({
  properties: z.string().optional(),
  list: z.string().optional(),
  deep: z.string().optional(),
  listFolders: z.string().optional(),
  recursive: z.string().optional(),
  stats: z.string().optional(),
});

const repositoryUsageSchema = z.object({
  repoKey: z.string(),
  repoType: z.string(),
  foldersCount: z.number().int(),
  filesCount: z.number().int(),
  usedSpace: z.string(),
  usedSpaceInBytes: z.number().int(),
  itemsCount: z.number().int(),
  packageType: z.string().optional(),
  percentage: z.string().optional(),
});

/** `GET /api/storageinfo`: counts as formatted text where Artifactory writes them so. */
const storageInfoAnswerSchema = z.object({
  binariesSummary: z.object({
    binariesCount: z.string(),
    binariesSize: z.string(),
    artifactsSize: z.string(),
    optimization: z.string(),
    itemsCount: z.string(),
    artifactsCount: z.string(),
  }),
  fileStoreSummary: z.object({
    storageType: z.string(),
    storageDirectory: z.string(),
    totalSpace: z.string(),
    usedSpace: z.string(),
    freeSpace: z.string(),
  }),
  repositoriesSummaryList: z.array(repositoryUsageSchema),
});

/** Artifactory's storage, copy, move and trash calls. */
export const artifactsRestRoutes: FastifyPluginAsyncZod = async (app) => {
  // Artifactory deletes a repository with everything in it; a large one continues in the background
  app.delete(
    '/artifactory/api/repositories/:key',
    {
      config: { access: 'admin' },
      schema: {
        summary: 'Delete a repository with its content (202 while a large one is deleted in the background); text',
        params: z.object({ key: z.string().min(1).max(64) }),
      },
    },
    async (request, reply) => {
      const { key } = request.params;
      const progress = await deleteRepositoryWithContent(app.db, app.work, key, key, auditActor(request));
      if (progress.state === 'failed')
        throw new HttpError(500, progress.message ?? 'The repository could not be deleted.');
      reply.type('text/plain');
      if (progress.state === 'running') {
        return reply
          .status(202)
          .send(`Repository '${key}' and its ${progress.files} file(s) are being removed in the background.`);
      }
      return reply.send(`Repository '${key}' and all its content have been removed successfully.`);
    },
  );

  app.get(
    '/artifactory/api/storage/*',
    {
      config: { access: 'public' },
      schema: {
        summary:
          'File or folder info; with ?list its files (deep, listFolders), ?properties its properties, ?stats its download statistics',
        querystring: storageQuery,
      },
    },
    async (request) => {
      const { repoKey, path } = repoAndPath(request, '/artifactory/api/storage/');
      const stats = request.query.stats !== undefined;
      // the counts this process holds are written first, so that the answer includes them
      if (stats) await flushDownloads(app.db);
      return storageInfo(repoContent(request), baseUrlOf(request), repoKey, path, {
        stats,
        properties: request.query.properties,
        list: request.query.list !== undefined,
        deep: flag(request.query.deep),
        listFolders: flag(request.query.listFolders),
      });
    },
  );

  app.put(
    '/artifactory/api/storage/*',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Set properties (?properties=k=v1,v2;k2=v), recursive unless recursive=0; 204',
        querystring: storageQuery,
      },
    },
    async (request, reply) => {
      const { repoKey, path } = repoAndPath(request, '/artifactory/api/storage/');
      const properties = parsePropertiesParam(request.query.properties ?? '');
      if (!Object.keys(properties).length)
        throw badRequest('The properties parameter is required, as key=value1,value2;key2=value.');
      await repoContent(request).changeProperties(
        { repoKey, path, recursive: request.query.recursive !== '0' },
        { set: properties },
      );
      return reply.status(204).send();
    },
  );

  app.delete(
    '/artifactory/api/storage/*',
    {
      config: { access: 'public' },
      schema: {
        summary: 'Remove properties (?properties=k1,k2), recursive unless recursive=0; 204',
        querystring: storageQuery,
      },
    },
    async (request, reply) => {
      const { repoKey, path } = repoAndPath(request, '/artifactory/api/storage/');
      const keys = (request.query.properties ?? '')
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean);
      if (!keys.length) throw badRequest('The properties parameter is required, as key1,key2.');
      await repoContent(request).changeProperties(
        { repoKey, path, recursive: request.query.recursive !== '0' },
        { remove: keys },
      );
      return reply.status(204).send();
    },
  );

  // a folder as one archive (Artifactory's folder download)
  app.get(
    '/artifactory/api/archive/download/*',
    {
      config: { access: 'public' },
      schema: {
        summary: 'A folder as one archive of the files the caller may read, streamed; at most 10 at once (429 beyond)',
        querystring: z.object({ archiveType: z.string().default('zip').describe('zip, tar, tar.gz or tgz') }),
      },
    },
    async (request, reply) => {
      const { repoKey, path: folder } = repoAndPath(request, '/artifactory/api/archive/download/');
      const archive = await folderArchive(repoContent(request), repoKey, folder, request.query.archiveType);
      return sendFolderArchive(reply, archive);
    },
  );

  app.get(
    '/artifactory/api/storageinfo',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Binaries, the file store and every repository with a TOTAL row, in Artifactory's number formats",
        response: { 200: storageInfoAnswerSchema },
      },
    },
    async () => artifactoryStorageInfo(app.db, app.binaries),
  );

  // Artifactory's properties update: `{"props": {key: value | [values] | null}}`, null removing the key;
  // one change (one transaction), recursive unless `recursiveProperties=0`
  app.patch(
    '/artifactory/api/metadata/*',
    {
      config: { access: 'public', keepNulls: true },
      schema: {
        summary:
          'Change properties: a value sets, null removes, in one transaction; recursive unless recursiveProperties=0; 204',
        querystring: z.object({ recursiveProperties: z.string().optional(), atomicProperties: z.string().optional() }),
        body: z.object({
          props: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()])),
        }),
      },
    },
    async (request, reply) => {
      const { repoKey, path } = repoAndPath(request, '/artifactory/api/metadata/');
      const entries = Object.entries(request.body.props);
      if (!entries.length) throw badRequest('The props object names at least one property.');
      const set = Object.fromEntries(
        entries
          .filter(([, v]) => v !== null)
          .map(([k, v]) => [k, Array.isArray(v) ? v : [String(v)]] as [string, string[]]),
      );
      const remove = entries.filter(([, v]) => v === null).map(([k]) => k);
      await repoContent(request).changeProperties(
        { repoKey, path, recursive: request.query.recursiveProperties !== '0' },
        remove.length ? { set, remove } : { set },
      );
      return reply.status(204).send();
    },
  );

  for (const mode of ['copy', 'move'] as const) {
    app.post(
      `/artifactory/api/${mode}/*`,
      {
        config: { access: 'public' },
        schema: {
          querystring: z.object({
            to: z.string().optional(),
            dry: z.string().optional(),
            dryRun: z.string().optional(),
          }),
        },
      },
      async (request) => {
        const from = repoAndPath(request, `/artifactory/api/${mode}/`);
        if (!from.path) throw badRequest(ARTIFACT_MESSAGES.pathEmpty);
        const to = parseTarget(request.query.to);
        const dryRun = flag(request.query.dry) || flag(request.query.dryRun);
        const result = await repoContent(request).copyOrMove(mode, from, to, { dryRun, conflicts: 'overwrite' });
        if (dryRun) {
          return {
            messages: [
              {
                level: 'INFO',
                message: `Dry run for ${mode}ing ${from.repoKey}/${from.path} to ${to.repoKey}/${to.path} completed successfully`,
              },
              ...result.conflicts.map((path) => ({
                level: 'WARNING',
                message: `${to.repoKey}/${path} would be overwritten`,
              })),
            ],
          };
        }
        const files = result.files;
        const verb = mode === 'copy' ? 'copying' : 'moving';
        return {
          messages: [
            {
              level: 'INFO',
              message: `${verb} ${from.repoKey}/${from.path} to ${to.repoKey}/${to.path} completed successfully, ${files} artifacts were ${mode === 'copy' ? 'copied' : 'moved'}`,
            },
          ],
        };
      },
    );
  }

  app.post(
    '/artifactory/api/trash/restore/*',
    { config: { access: 'public' }, schema: { querystring: z.object({ to: z.string().optional() }) } },
    async (request, reply) => {
      const { repoKey, path } = repoAndPath(request, '/artifactory/api/trash/restore/');
      const trashPath = path ? `${repoKey}/${path}` : repoKey;
      const to = request.query.to ? parseTarget(request.query.to) : undefined;
      const restored = await repoContent(request).restore(trashPath, to);
      return reply.type('text/plain').send(`Successfully restored trash items to ${restored.repoKey}/${restored.path}`);
    },
  );

  app.post('/artifactory/api/trash/empty', { config: { access: 'admin' } }, async (request, reply) => {
    const files = await repoContent(request).emptyTrash();
    return reply.type('text/plain').send(`Trash can emptied: ${files} file(s) removed.`);
  });

  app.delete('/artifactory/api/trash/clean/*', { config: { access: 'admin' } }, async (request, reply) => {
    const { repoKey, path } = repoAndPath(request, '/artifactory/api/trash/clean/');
    await repoContent(request).remove(TRASHCAN_REPO, path ? `${repoKey}/${path}` : repoKey);
    return reply.status(204).send();
  });
};
