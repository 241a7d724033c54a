import type { FastifyInstance } from 'fastify';
import { HELM_MESSAGES } from '@arca/contracts';
import { notFound } from '../../core/errors.js';
import { deployAtPath, repoAndPath, repoContent, sendDerived } from '../../features/artifacts/index.js';
import { rawBody, restOfPath } from '../route-schemas.js';
import { HelmCharts, INDEX_FILE, helmPlainPaths } from './helm.service.js';

const PREFIX = '/artifactory/api/helm/';

/**
 * A Helm chart repository at `/artifactory/api/helm/{repoKey}` (`helm repo add`): `index.yaml`,
 * the charts at the index's relative `urls`, and deploys with a `PUT` of a chart archive.
 */
export async function helmRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  const hooks = helmPlainPaths(app);

  app.route({
    method: ['GET', 'HEAD'],
    url: `${PREFIX}*`,
    config: { access: 'public' },
    schema: { summary: "A Helm chart repository's index.yaml, or a chart archive it lists", params: restOfPath },
    handler: async (request, reply) => {
      const { repoKey, path } = repoAndPath(request, PREFIX);
      const content = repoContent(request);
      const repo = await content.repository(repoKey);
      if (path === INDEX_FILE || path === '') {
        const stored = repo.rclass === 'local' ? await content.resolve(repo, INDEX_FILE) : undefined;
        if (stored) return content.send(reply, stored.item);
        const file = await new HelmCharts(content).indexFile(repo);
        if (!file) throw notFound(HELM_MESSAGES.notFound);
        return sendDerived(request, reply, file);
      }
      const found = await content.resolve(repo, path);
      if (!found || found.item.folder === 1) throw notFound(HELM_MESSAGES.notFound);
      return content.send(reply, found.item);
    },
  });

  const deploy = { summary: 'Deploys a chart archive (the index follows)', params: restOfPath, body: rawBody };
  app.put(`${PREFIX}*`, { config: { access: 'public' }, schema: deploy }, (request, reply) =>
    deployAtPath(request, reply, PREFIX, (type) => (type === 'helm' ? hooks : undefined)),
  );
}
