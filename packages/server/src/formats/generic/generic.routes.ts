import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ARTIFACT_MESSAGES, itemCreatedSchema } from '@arca/contracts';
import { badRequest, notFound } from '../../core/errors.js';
import {
  repoContent,
  type DeployRequest,
  headerValue,
  repoAndPath,
  sendFolderIndex,
  itemCreated,
  checksumsOf,
} from '../../features/artifacts/index.js';
import { baseUrlOf } from '../../core/base-url.js';
import type { DerivedFile } from '../../features/artifacts/index.js';

/** A file a format derives: its checksums as headers, conditional requests on its SHA-1. */
function sendDerived(request: FastifyRequest, reply: FastifyReply, file: DerivedFile): FastifyReply {
  const hash = (algorithm: string) => createHash(algorithm).update(file.body).digest('hex');
  const etag = `"${hash('sha1')}"`;
  reply
    .header('Content-Type', file.contentType)
    .header('ETag', etag)
    .header('X-Checksum-Sha1', hash('sha1'))
    .header('X-Checksum-Sha256', hash('sha256'))
    .header('X-Checksum-Md5', hash('md5'))
    .header('Content-Length', file.body.length);
  if (request.headers['if-none-match']?.split(',').some((t) => t.trim() === etag)) return reply.status(304).send();
  return reply.send(request.method === 'HEAD' ? undefined : file.body);
}

/**
 * Deploy, download and delete under `/artifactory/{repoKey}/{path}`, with the raw request body.
 * A repository whose format is served at these addresses (Maven) has its format's hooks called
 * around each (`app.plainPaths`).
 */
export async function genericRoutes(app: FastifyInstance): Promise<void> {
  // deploys stream the body themselves: no parsing, no size limit
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  app.put('/artifactory/*', { config: { access: 'public' } }, async (request, reply) => {
    const { repoKey, path, properties } = repoAndPath(request, '/artifactory/');
    const length = request.headers['content-length'];
    const content = repoContent(request);
    let deploy: DeployRequest = {
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
    };
    const target = await content.writeTarget(repoKey);
    const plain = path ? app.plainPaths.get(target.package_type) : undefined;
    if (plain) {
      await content.authorize('deploy', target.key, path);
      const decided = await plain.deploy(content, target, deploy);
      if ('taken' in decided) {
        request.raw.resume();
        const item = decided.taken;
        if (!item) return reply.status(201).send({ repo: target.key, path: `/${path}` });
        const checksums = await checksumsOf(app.db, item.sha256!);
        return reply
          .status(201)
          .send(itemCreatedSchema.parse(itemCreated(baseUrlOf(request), { repoKey: target.key, item, checksums })));
      }
      deploy = decided;
    }
    // the write target resolved above serves the deploy too: one lookup per request
    const deployed = await content.deploy({ ...deploy, target });
    await plain?.changed(target, deployed.item.path);
    return reply.status(201).send(itemCreatedSchema.parse(itemCreated(baseUrlOf(request), deployed)));
  });

  app.get('/artifactory/*', { config: { access: 'public' } }, async (request, reply) => {
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

  app.delete('/artifactory/*', { config: { access: 'public' } }, async (request, reply) => {
    const { repoKey, path } = repoAndPath(request, '/artifactory/');
    const content = repoContent(request);
    const repo = await content.repository(repoKey);
    if (!path) throw badRequest(ARTIFACT_MESSAGES.pathEmpty);
    await content.remove(repoKey, path);
    await app.plainPaths.get(repo.package_type)?.changed(repo, path);
    return reply.status(204).send();
  });
}
