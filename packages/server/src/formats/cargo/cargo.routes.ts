import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AUTH_MESSAGES, CARGO_MAX_CRATE_BYTES, CARGO_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { HttpError, badRequest, notFound, withReasonPhrase } from '../../core/errors.js';
import { baseUrlOf } from '../../core/base-url.js';
import { readLimited, repoContent, sendDerived } from '../../features/artifacts/index.js';
import { cratePath, parsePublishBody } from './cargo.crate.js';
import { rawBody, repoKeyParams } from '../route-schemas.js';
import { CargoCrates } from './cargo.service.js';

const PREFIX = '/artifactory/api/cargo';

type RepoParams = { repoKey: string };
type CrateParams = RepoParams & { name: string; version: string };

const crateParams = repoKeyParams.extend({ name: z.string().describe('the crate'), version: z.string() });
const nameParams = repoKeyParams.extend({ name: z.string().describe('the crate') });

/**
 * A Cargo registry at `/artifactory/api/cargo/{repoKey}/`, as cargo speaks to Artifactory: the
 * sparse index at `index/` (`config.json` with `dl` and `api` under the same repository,
 * `auth-required` unless anonymous users may read it), downloads at `v1/crates/{name}/{version}/download`,
 * and the web API at `api/v1/crates` (publish, yank, unyank, owners, search). Tokens come as the
 * whole `Authorization` header, as cargo sends them; errors as `{"errors":[{"detail"}]}`, which cargo prints.
 */
export async function cargoRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error instanceof HttpError ? error.statusCode : (error.statusCode ?? 500);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (status === 401) reply.header('WWW-Authenticate', 'Cargo');
    withReasonPhrase(error, reply);
    return reply.status(status).send({ errors: [{ detail: status >= 500 ? 'Internal error.' : error.message }] });
  });
  const config = { access: 'public' as const, bareToken: true };
  const registryOf = (request: FastifyRequest, repoKey: string) =>
    `${baseUrlOf(request)}${PREFIX}/${encodeURIComponent(repoKey)}`;

  app.route<{ Params: RepoParams }>({
    method: ['GET', 'HEAD'],
    url: `${PREFIX}/:repoKey/index/config.json`,
    config,
    schema: {
      summary: "The sparse index's config.json: where crates download from and whether a token is needed",
      params: repoKeyParams,
    },
    handler: async (request, reply) => {
      const content = repoContent(request);
      const repo = await content.repository(request.params.repoKey);
      // cargo asks without its token first: a 401 tells it the registry needs one
      if (!(await content.mayRead(repo.key, 'index/config.json'))) {
        if (request.principal.kind === 'anonymous') throw new HttpError(401, AUTH_MESSAGES.loginRequired);
        throw new HttpError(403, `You do not have read permission on '${repo.key}'.`);
      }
      const anonymous = await content.mayRead(repo.key, 'index/config.json', { anonymous: true });
      const registry = registryOf(request, repo.key);
      const body = JSON.stringify({ dl: `${registry}/v1/crates`, api: registry, 'auth-required': !anonymous });
      return sendDerived(request, reply, { body: Buffer.from(body), contentType: 'application/json' });
    },
  });

  app.route<{ Params: RepoParams & { '*': string } }>({
    method: ['GET', 'HEAD'],
    url: `${PREFIX}/:repoKey/index/*`,
    config,
    schema: {
      summary: "A crate's file of the sparse index, one line per version",
      params: repoKeyParams.extend({ '*': z.string().describe('the index path (`se/rd/serde`)') }),
    },
    handler: async (request, reply) => {
      const indexPath = request.params['*'];
      if (!/^(1|2|3\/[a-z0-9_-]|[a-z0-9_-]{2}\/[a-z0-9_-]{2})\/[a-z0-9_-]+$/.test(indexPath)) {
        throw notFound(fill(CARGO_MESSAGES.notFound, { name: indexPath.split('/').at(-1) ?? indexPath }));
      }
      const content = repoContent(request);
      const repo = await content.repository(request.params.repoKey);
      const file = await new CargoCrates(content).indexFile(repo, indexPath);
      if (!file) throw notFound(fill(CARGO_MESSAGES.notFound, { name: indexPath.split('/').at(-1)! }));
      if ('item' in file) return content.send(reply, file.item);
      return sendDerived(request, reply, file);
    },
  });

  app.route<{ Params: CrateParams }>({
    method: ['GET', 'HEAD'],
    url: `${PREFIX}/:repoKey/v1/crates/:name/:version/download`,
    config,
    schema: { summary: 'Downloads a crate version', params: crateParams },
    handler: async (request, reply) => {
      const { repoKey, name, version } = request.params;
      const content = repoContent(request);
      const repo = await content.repository(repoKey);
      const found = await content.resolve(repo, cratePath(name, version));
      if (!found || found.item.folder === 1) throw notFound(fill(CARGO_MESSAGES.versionNotFound, { name, version }));
      return content.send(reply, found.item);
    },
  });

  const publish = {
    summary: "Publishes a crate (`cargo publish`): the metadata's length and JSON, then the crate's",
    params: repoKeyParams,
    body: rawBody,
  };
  app.put<{ Params: RepoParams }>(
    `${PREFIX}/:repoKey/api/v1/crates/new`,
    { config, schema: publish },
    async (request, reply) => {
      const content = repoContent(request);
      // a remote repository (or a virtual one without a deployment target) refuses before the body is read
      const target = await content.writeTarget(request.params.repoKey);
      const body = await readLimited(request.raw, CARGO_MAX_CRATE_BYTES + 16 * 1024 * 1024);
      if (!body) throw badRequest(fill(CARGO_MESSAGES.badPublish, { reason: 'it is larger than 512 MiB' }));
      const { metadata, crate } = parsePublishBody(body);
      await new CargoCrates(content).publish(target, metadata, crate);
      return reply.send({ warnings: { invalid_categories: [], invalid_badges: [], other: [] } });
    },
  );

  const yank = (yanked: boolean) => async (request: FastifyRequest<{ Params: CrateParams }>, reply: FastifyReply) => {
    const { repoKey, name, version } = request.params;
    await new CargoCrates(repoContent(request)).setYanked(repoKey, name, version, yanked);
    return reply.send({ ok: true });
  };
  app.delete(
    `${PREFIX}/:repoKey/api/v1/crates/:name/:version/yank`,
    { config, schema: { summary: 'Yanks a crate version (`cargo yank`)', params: crateParams } },
    yank(true),
  );
  app.put(
    `${PREFIX}/:repoKey/api/v1/crates/:name/:version/unyank`,
    { config, schema: { summary: 'Takes back the yank of a crate version', params: crateParams } },
    yank(false),
  );

  app.get<{ Params: RepoParams & { name: string } }>(
    `${PREFIX}/:repoKey/api/v1/crates/:name/owners`,
    { config, schema: { summary: "A crate's owners: the users who published it", params: nameParams } },
    async (request, reply) => {
      const content = repoContent(request);
      const repo = await content.repository(request.params.repoKey);
      const publishers = await new CargoCrates(content).publishers(repo, request.params.name);
      return reply.send({ users: publishers.map((login, i) => ({ id: i + 1, login, name: login })) });
    },
  );
  const noOwners = async () => {
    throw badRequest(CARGO_MESSAGES.owners);
  };
  const owners = {
    summary: 'Refused: owners follow from the permissions on the repository',
    params: nameParams,
    body: rawBody,
  };
  app.put(`${PREFIX}/:repoKey/api/v1/crates/:name/owners`, { config, schema: owners }, noOwners);
  app.delete(`${PREFIX}/:repoKey/api/v1/crates/:name/owners`, { config, schema: owners }, noOwners);

  app.get<{ Params: RepoParams; Querystring: { q?: string; per_page?: string } }>(
    `${PREFIX}/:repoKey/api/v1/crates`,
    {
      config,
      schema: {
        summary: 'Searches the crates by name (`cargo search`)',
        params: repoKeyParams,
        querystring: z.looseObject({ q: z.string().optional(), per_page: z.string().optional() }),
      },
    },
    async (request, reply) => {
      const content = repoContent(request);
      const repo = await content.repository(request.params.repoKey);
      const limit = Math.min(100, Math.max(1, Number(request.query.per_page) || 10));
      const { hits, total } = await new CargoCrates(content).search(repo, request.query.q ?? '', limit);
      return reply.send({ crates: hits, meta: { total } });
    },
  );
}
