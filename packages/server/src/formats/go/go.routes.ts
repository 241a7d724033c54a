import type { FastifyInstance } from 'fastify';
import { answerErrorsAsText, notFound } from '../../core/errors.js';
import { deployAtPath, repoAndPath, repoContent, sendDerived } from '../../features/artifacts/index.js';
import { rawBody, restOfPath } from '../route-schemas.js';
import { parseProxyPath } from './go.module.js';
import { GoModules, goNotFound, goPlainPaths } from './go.service.js';

const PREFIX = '/artifactory/api/go/';

/**
 * The Go module proxy at `/artifactory/api/go/{repoKey}/` (GOPROXY): `{module}/@v/list`,
 * `.info`, `.mod`, `.zip` and `{module}/@latest`, module paths case-encoded; and publishing as
 * `jf go-publish` does, a `PUT` of each of a version's files. Errors answer as plain text, which
 * the go command prints as the server's response.
 */
export async function goRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  answerErrorsAsText(app);
  const plain = goPlainPaths(app);

  app.route({
    method: ['GET', 'HEAD'],
    url: `${PREFIX}*`,
    config: { access: 'public' },
    schema: {
      summary: 'The Go module proxy (GOPROXY): a module version list, .info, .mod, .zip or @latest',
      params: restOfPath,
    },
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
      return sendDerived(request, reply, answer);
    },
  });

  const publish = {
    summary: 'Publishes one file of a module version, as `jf go-publish` does',
    params: restOfPath,
    body: rawBody,
  };
  app.put(`${PREFIX}*`, { config: { access: 'public' }, schema: publish }, (request, reply) =>
    deployAtPath(request, reply, PREFIX, (type) => (type === 'go' ? plain : undefined)),
  );
}
