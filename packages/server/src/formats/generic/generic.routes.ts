import type { FastifyInstance } from 'fastify';
import { ARTIFACT_MESSAGES, itemCreatedSchema } from '@arca/contracts';
import { badRequest, notFound } from '../../core/errors.js';
import { repoContent } from '../../features/artifacts/artifacts.content.js';
import {
  baseUrlOf,
  headerValue,
  repoAndPath,
  sendFolderIndex,
  sendItem,
} from '../../features/artifacts/artifacts.http.js';
import { itemCreated } from '../../features/artifacts/artifacts.uris.js';

/** Deploy, download and delete under `/artifactory/{repoKey}/{path}`, with the raw request body. */
export async function genericRoutes(app: FastifyInstance): Promise<void> {
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
    const found = await content.resolve(repo, path);
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
