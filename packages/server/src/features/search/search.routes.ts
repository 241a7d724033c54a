import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { restSearchQuerySchema } from '@arca/contracts';
import { badRequest } from '../../core/errors.js';
import { AqlError } from './aql.parser.js';
import { runAql } from './aql.service.js';
import { SEARCHES, restSearch } from './search.rest.js';
import { flushDownloads } from '../artifacts/index.js';
import { badChecksumSearch, latestVersionSearch, patternSearch, versionsSearch } from './search.layout.js';

/** Artifactory's search calls for scripts: AQL, the artifact, checksum, property, GAVC, date and usage searches, and the layout searches. */
export const searchRestRoutes: FastifyPluginAsyncZod = async (app) => {
  // AQL comes as text/plain; clients send other types too, all read as text
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
    done(null, body),
  );

  for (const kind of Object.keys(SEARCHES)) {
    app.get(
      `/artifactory/api/search/${kind}`,
      { config: { access: 'public' }, schema: { querystring: restSearchQuerySchema } },
      async (request) => {
        await flushDownloads(app.db);
        return restSearch(request, kind, request.query);
      },
    );
  }

  const layout = {
    versions: versionsSearch,
    latestVersion: latestVersionSearch,
    pattern: patternSearch,
    badChecksum: badChecksumSearch,
  };
  for (const [kind, handler] of Object.entries(layout)) {
    app.get(
      `/artifactory/api/search/${kind}`,
      { config: { access: 'public' }, schema: { querystring: restSearchQuerySchema } },
      async (request, reply) => {
        const answer = await handler(request, request.query);
        // latestVersion answers the version as plain text
        return typeof answer === 'string' ? reply.type('text/plain').send(answer) : answer;
      },
    );
  }

  app.post(
    '/artifactory/api/search/aql',
    { config: { access: 'public' }, schema: { body: z.string().optional() } },
    async (request) => {
      const text = request.body ?? '';
      if (!text.trim())
        throw badRequest('The request body is an AQL query, e.g. items.find({"repo":"libs-release-local"}).');
      try {
        // the download counts this process holds are written first, so that stat.* criteria see them
        await flushDownloads(app.db);
        return await runAql(app.db, request.principal, text);
      } catch (error) {
        if (error instanceof AqlError) throw badRequest(`Failed to parse query: ${error.message}`);
        throw error;
      }
    },
  );
};
