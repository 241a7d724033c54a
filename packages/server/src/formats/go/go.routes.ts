import { createHash } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, notFound } from '../../core/errors.js';
import { deployAtPath, repoAndPath, repoContent } from '../../features/artifacts/index.js';
import type { DerivedFile } from '../../features/artifacts/index.js';
import { parseProxyPath } from './go.module.js';
import { GoModules, goNotFound, goPlainPaths } from './go.service.js';

const PREFIX = '/artifactory/api/go/';

/** A body the server made, with an ETag on its SHA-256 so that clients revalidate cheaply. */
function sendMade(request: FastifyRequest, reply: FastifyReply, file: DerivedFile): FastifyReply {
  const etag = `"${createHash('sha256').update(file.body).digest('hex')}"`;
  reply.header('Content-Type', file.contentType).header('ETag', etag).header('Content-Length', file.body.length);
  if (request.headers['if-none-match']?.split(',').some((t) => t.trim() === etag)) return reply.status(304).send();
  return reply.send(request.method === 'HEAD' ? undefined : file.body);
}

/**
 * The Go module proxy at `/artifactory/api/go/{repoKey}/` (GOPROXY): `{module}/@v/list`,
 * `.info`, `.mod`, `.zip` and `{module}/@latest`, module paths case-encoded; and publishing as
 * `jf go-publish` does, a `PUT` of each of a version's files. Errors answer as plain text, which
 * the go command prints as the server's response.
 */
export async function goRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error instanceof HttpError ? error.statusCode : (error.statusCode ?? 500);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (status === 401) reply.header('WWW-Authenticate', 'Basic realm="Arca"');
    return reply
      .status(status)
      .type('text/plain; charset=utf-8')
      .send(status >= 500 ? 'Internal error.\n' : `${error.message}\n`);
  });
  const plain = goPlainPaths(app);

  app.route({
    method: ['GET', 'HEAD'],
    url: `${PREFIX}*`,
    config: { access: 'public' },
    handler: async (request, reply) => {
      const { repoKey, path } = repoAndPath(request, PREFIX);
      const parsed = parseProxyPath(path);
      // the checksum database is the client's own business: GONOSUMDB or GOSUMDB=off for private modules
      if (!parsed) throw notFound(`not found: ${path}`);
      const content = repoContent(request);
      const repo = await content.repository(repoKey);
      const answer = await new GoModules(content).answer(repo, parsed);
      if (!answer) throw goNotFound(parsed);
      if ('item' in answer) return content.send(reply, answer.item);
      return sendMade(request, reply, answer);
    },
  });

  app.put(`${PREFIX}*`, { config: { access: 'public' } }, (request, reply) =>
    deployAtPath(request, reply, PREFIX, (type) => (type === 'go' ? plain : undefined)),
  );
}
