import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ARTIFACT_MESSAGES, TRASHCAN_REPO, itemCreatedSchema, type Properties } from '@arca/contracts';
import { normalizeItemPath, parseRequestPath } from '../../core/artifact-path.js';
import { badRequest, notFound } from '../../core/errors.js';
import { requirePermission } from '../../core/permissions.js';
import { repoContent } from './artifacts.content.js';
import { baseUrlOf, headerValue, sendFolderIndex, sendItem } from './artifacts.http.js';
import { storageInfo } from './artifacts.storage-api.js';
import { itemCreated } from './artifacts.uris.js';

/** Splits `/<prefix>/<repoKey>/<path…>` of the raw URL into a repository key and a checked path. */
export function repoAndPath(
  request: FastifyRequest,
  prefix: string,
): { repoKey: string; path: string; properties: Properties } {
  const raw = request.raw.url ?? '';
  const pathname = raw.split('?')[0]!.slice(prefix.length).replace(/^\/+/, '');
  const slash = pathname.indexOf('/');
  const rawKey = slash < 0 ? pathname : pathname.slice(0, slash);
  let repoKey: string;
  try {
    repoKey = decodeURIComponent(rawKey.split(';')[0]!);
  } catch {
    throw badRequest(ARTIFACT_MESSAGES.pathTraversal);
  }
  if (!repoKey) throw notFound();
  const { path, properties } = parseRequestPath(slash < 0 ? '' : pathname.slice(slash + 1));
  return { repoKey, path, properties };
}

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

/** Deploy, download and delete under `/artifactory/{repoKey}/{path}`, with the raw request body. */
async function artifactContentRoutes(app: FastifyInstance): Promise<void> {
  // deploys stream the body themselves: no parsing, no size limit
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  app.put('/artifactory/*', { config: { access: 'public' } }, async (request, reply) => {
    const { repoKey, path, properties } = repoAndPath(request, '/artifactory/');
    const length = request.headers['content-length'];
    const deployed = await repoContent(request).deploy({
      repoKey,
      path,
      properties,
      body: request.raw,
      contentLength: length === undefined ? undefined : Number(length),
      checksums: {
        sha1: headerValue(request, 'x-checksum-sha1'),
        sha256: headerValue(request, 'x-checksum-sha256'),
        md5: headerValue(request, 'x-checksum-md5'),
      },
      checksumDeploy: headerValue(request, 'x-checksum-deploy')?.toLowerCase() === 'true',
    });
    return reply.status(201).send(itemCreatedSchema.parse(itemCreated(baseUrlOf(request), deployed)));
  });

  app.get('/artifactory/*', { config: { access: 'public' } }, async (request, reply) => {
    const { repoKey, path } = repoAndPath(request, '/artifactory/');
    const content = repoContent(request);
    const repo = await content.repository(repoKey);
    const found = await content.resolve(repo.key, path);
    if (!path) return sendFolderIndex(request, reply, repo, '', await content.children(repo, ''));
    if (!found) throw notFound();
    if (found.item.folder === 1) {
      return sendFolderIndex(request, reply, found.repo, path, await content.children(found.repo, path));
    }
    return sendItem(request, reply, found.item);
  });

  app.delete('/artifactory/*', { config: { access: 'public' } }, async (request, reply) => {
    const { repoKey, path } = repoAndPath(request, '/artifactory/');
    const content = repoContent(request);
    await content.repository(repoKey);
    if (!path) throw badRequest(ARTIFACT_MESSAGES.pathEmpty);
    await content.remove(repoKey, path);
    return reply.status(204).send();
  });
}

const storageQuery = z.object({
  properties: z.string().optional(),
  list: z.string().optional(),
  deep: z.string().optional(),
  listFolders: z.string().optional(),
  recursive: z.string().optional(),
});

/** Artifactory's storage, copy, move and trash calls. */
export const artifactsRestRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(artifactContentRoutes);

  app.get(
    '/artifactory/api/storage/*',
    { config: { access: 'public' }, schema: { querystring: storageQuery } },
    async (request) => {
      const { repoKey, path } = repoAndPath(request, '/artifactory/api/storage/');
      return storageInfo(repoContent(request), baseUrlOf(request), repoKey, path, {
        properties: request.query.properties,
        list: request.query.list !== undefined,
        deep: flag(request.query.deep),
        listFolders: flag(request.query.listFolders),
      });
    },
  );

  app.put(
    '/artifactory/api/storage/*',
    { config: { access: 'public' }, schema: { querystring: storageQuery } },
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
    { config: { access: 'public' }, schema: { querystring: storageQuery } },
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

  for (const mode of ['copy', 'move'] as const) {
    app.post(
      `/artifactory/api/${mode}/*`,
      {
        config: { access: 'public' },
        schema: { querystring: z.object({ to: z.string().optional(), dry: z.string().optional() }) },
      },
      async (request) => {
        const from = repoAndPath(request, `/artifactory/api/${mode}/`);
        if (!from.path) throw badRequest(ARTIFACT_MESSAGES.pathEmpty);
        const to = parseTarget(request.query.to);
        if (flag(request.query.dry)) {
          await requirePermission(request, mode === 'move' ? 'delete' : 'read', from.repoKey, from.path);
          await requirePermission(request, 'deploy', to.repoKey, to.path);
          return {
            messages: [
              {
                level: 'INFO',
                message: `Dry run for ${mode}ing ${from.repoKey}/${from.path} to ${to.repoKey}/${to.path} completed successfully`,
              },
            ],
          };
        }
        const files = await repoContent(request).copyOrMove(mode, from, to);
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
