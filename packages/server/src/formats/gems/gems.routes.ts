import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { GEMS_MAX_GEM_BYTES, GEMS_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { answerErrorsAsText, badRequest, notFound } from '../../core/errors.js';
import { readLimited, repoAndPath, repoContent } from '../../features/artifacts/index.js';
import { rawBody, repoKeyParams, restOfPath } from '../route-schemas.js';
import { GemRegistry } from './gems.service.js';

const PREFIX = '/artifactory/api/gems/';

/** The fields of a form body or query string (`gem yank` sends `gem_name`, `version`, `platform`). */
function fieldsOf(request: FastifyRequest): URLSearchParams {
  const query = new URLSearchParams((request.raw.url ?? '').split('?')[1] ?? '');
  if (typeof request.body === 'string') for (const [k, v] of new URLSearchParams(request.body)) query.set(k, v);
  return query;
}

/**
 * A RubyGems registry at `/artifactory/api/gems/{repoKey}/` (`gem push --host`, `gem install
 * --source`, a Gemfile's `source`): pushes and yanks at `api/v1/gems`, the full and compact
 * indexes and the gems. API keys come as the whole `Authorization` header, as gem sends them;
 * answers and errors are plain text, which gem prints.
 */
export async function gemsRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) =>
    done(null, body),
  );
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  answerErrorsAsText(app);
  const config = { access: 'public' as const, bareToken: true };

  const push = { summary: 'Pushes a gem (`gem push --host`)', params: repoKeyParams, body: rawBody };
  app.post<{ Params: { repoKey: string } }>(
    `${PREFIX}:repoKey/api/v1/gems`,
    { config, schema: push },
    async (request, reply) => {
      const content = repoContent(request);
      const target = await content.writeTarget(request.params.repoKey);
      const body = await readLimited(request.raw, GEMS_MAX_GEM_BYTES);
      if (!body) throw badRequest(fill(GEMS_MESSAGES.badGem, { reason: 'it is larger than 512 MiB' }));
      const entry = await new GemRegistry(content).push(target, body);
      return reply
        .type('text/plain; charset=utf-8')
        .send(fill(GEMS_MESSAGES.pushed, { name: entry.name, version: entry.version }));
    },
  );

  app.delete<{ Params: { repoKey: string } }>(
    `${PREFIX}:repoKey/api/v1/gems/yank`,
    {
      config,
      schema: {
        summary: 'Yanks a gem version (`gem yank`): its fields in the form body or the query',
        params: repoKeyParams,
        body: z.string().nullish().describe('gem_name, version and platform, form-encoded'),
      },
    },
    async (request, reply) => {
      const fields = fieldsOf(request);
      const name = fields.get('gem_name') ?? '';
      const version = fields.get('version') ?? '';
      await new GemRegistry(repoContent(request)).yank(
        request.params.repoKey,
        name,
        version,
        fields.get('platform') || 'ruby',
      );
      return reply.type('text/plain; charset=utf-8').send(fill(GEMS_MESSAGES.yanked, { name, version }));
    },
  );

  app.route({
    method: ['GET', 'HEAD'],
    url: `${PREFIX}*`,
    config,
    schema: { summary: 'The full and compact indexes (specs, versions, info) and the gems', params: restOfPath },
    handler: async (request, reply) => {
      const { repoKey, path } = repoAndPath(request, PREFIX);
      const content = repoContent(request);
      const repo = await content.repository(repoKey);
      const made = await new GemRegistry(content).answer(repo, path);
      if (made) return reply.type(made.contentType).send(request.method === 'HEAD' ? undefined : made.body);
      const found = path ? await content.resolve(repo, path) : undefined;
      if (!found || found.item.folder === 1) throw notFound(GEMS_MESSAGES.notFound);
      return content.send(reply, found.item);
    },
  });
}
