import type { FastifyInstance } from 'fastify';
import { ARTIFACT_MESSAGES } from '@arca/contracts';
import { badRequest, notFound } from '../../core/errors.js';
import { rawBody, restOfPath } from '../route-schemas.js';
import {
  deployAtPath,
  repoContent,
  repoAndPath,
  sendDerived,
  sendFolderIndex,
} from '../../features/artifacts/index.js';

/**
 * Deploy, download and delete under `/artifactory/{repoKey}/{path}`, with the raw request body.
 * A repository whose format is served at these addresses (Maven) has its format's hooks called
 * around each (`app.plainPaths`).
 */
export async function genericRoutes(app: FastifyInstance): Promise<void> {
  // deploys stream the body themselves: no parsing, no size limit
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  const params = restOfPath;
  app.put(
    '/artifactory/*',
    {
      config: { access: 'public' },
      schema: { summary: 'Deploys a file at a path of a repository', params, body: rawBody },
    },
    (request, reply) => deployAtPath(request, reply, '/artifactory/', (type) => app.plainPaths.get(type)),
  );

  const read = { summary: 'Downloads a file of a repository, or lists a folder', params };
  app.get('/artifactory/*', { config: { access: 'public' }, schema: read }, async (request, reply) => {
    const { repoKey, path } = repoAndPath(request, '/artifactory/');
    const content = repoContent(request);
    const repo = await content.repository(repoKey);
    if (!path) return sendFolderIndex(request, reply, repo, '', await content.children(repo, ''));
    const derived = await app.plainPaths.get(repo.package_type)?.read(content, repo, path);
    if (derived && 'body' in derived) return sendDerived(request, reply, derived);
    const found = derived ?? (await content.resolve(repo, path));
    if (!found) throw notFound();
    if (found.item.folder === 1) {
      return sendFolderIndex(request, reply, found.repo, path, await content.children(found.repo, path));
    }
    return content.send(reply, found.item);
  });

  const remove = { summary: 'Deletes a file or folder of a repository (to the trash can when it is on)', params };
  app.delete('/artifactory/*', { config: { access: 'public' }, schema: remove }, async (request, reply) => {
    const { repoKey, path } = repoAndPath(request, '/artifactory/');
    const content = repoContent(request);
    const repo = await content.repository(repoKey);
    if (!path) throw badRequest(ARTIFACT_MESSAGES.pathEmpty);
    await content.remove(repoKey, path);
    await app.plainPaths.get(repo.package_type)?.changed(repo, path);
    return reply.status(204).send();
  });
}
