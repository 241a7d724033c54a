import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { z } from 'zod';
import { PYPI_MAX_UPLOAD_BYTES, PYPI_MESSAGES, PYPI_SIMPLE_HTML, PYPI_SIMPLE_JSON } from '@arca/contracts';
import { badRequest, notFound } from '../../core/errors.js';
import { parseRequestPath } from '../../core/artifact-path.js';
import { repoContent } from '../../features/artifacts/index.js';
import { baseUrlOf } from '../../core/base-url.js';
import { normalize, renderRoot } from './pypi.index.js';
import { rawBody, repoKeyAndRest, repoKeyParams } from '../route-schemas.js';
import { PypiProjects, type UploadFields } from './pypi.service.js';

const PREFIX = '/artifactory/api/pypi';

/** PEP 691 content negotiation: JSON when the client ranks it at least as high as HTML. */
function wantsJson(request: FastifyRequest): boolean {
  const ranks = new Map<string, number>();
  for (const part of (request.headers.accept ?? '').split(',')) {
    const [type, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    ranks.set(type!.trim().toLowerCase(), q === undefined ? 1 : Number(q));
  }
  const json = ranks.get(PYPI_SIMPLE_JSON);
  if (json === undefined || json === 0) return false;
  return json >= Math.max(ranks.get(PYPI_SIMPLE_HTML) ?? 0, ranks.get('text/html') ?? 0);
}

function sendPage(request: FastifyRequest, reply: FastifyReply, body: string, json: boolean) {
  return reply
    .type(json ? PYPI_SIMPLE_JSON : `${PYPI_SIMPLE_HTML}; charset=utf-8`)
    .header('Vary', 'Accept')
    .send(request.method === 'HEAD' ? '' : body);
}

const registryOf = (request: FastifyRequest, repoKey: string) =>
  `${baseUrlOf(request)}${PREFIX}/${encodeURIComponent(repoKey)}`;

/**
 * The Python package index at `/artifactory/api/pypi/{repoKey}/`, as pip and twine speak it to
 * Artifactory: `simple/` (PEP 503 HTML, PEP 691 JSON), `packages/{path}` for the files, and
 * uploads through the legacy API (`POST` with `:action=file_upload`). Everything goes through the door.
 */
export async function pypiRoutes(app: FastifyInstance): Promise<void> {
  // twine prints an error's reason phrase (PyPI puts its message there): so does this API
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode >= 400 && typeof payload === 'string' && payload.startsWith('{"errors"')) {
      const message = (JSON.parse(payload) as { errors?: { message?: string }[] }).errors?.[0]?.message;
      if (message) reply.raw.statusMessage = message.replace(/[^\x20-\x7e]/g, ' ').slice(0, 500);
    }
    return payload;
  });
  await app.register(fastifyMultipart, { limits: { fileSize: PYPI_MAX_UPLOAD_BYTES, files: 1, fields: 200 } });

  const upload = async (request: FastifyRequest<{ Params: { repoKey: string } }>, reply: FastifyReply) => {
    if (!request.isMultipart()) throw badRequest(PYPI_MESSAGES.noFile);
    const content = repoContent(request);
    // a remote repository (or a virtual one without a deployment target) refuses before the body is read
    const target = await content.writeTarget(request.params.repoKey);
    const projects = new PypiProjects(content);
    const fields: UploadFields = {};
    // the file is held aside until every field is read: the digests may come after it in the form
    let file: { filename: string; upload: string } | undefined;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          const value = String(part.value);
          const known = fields[part.fieldname];
          fields[part.fieldname] = known === undefined ? value : [...(Array.isArray(known) ? known : [known]), value];
          continue;
        }
        if (part.fieldname !== 'content' || file) {
          part.file.resume();
          continue;
        }
        file = { filename: part.filename, upload: await content.uploads.create(target.key) };
        await content.uploads.append(target.key, file.upload, part.file);
        if (part.file.truncated) throw badRequest('The file is larger than the upload limit.');
      }
      if (fields[':action'] !== 'file_upload') throw badRequest(PYPI_MESSAGES.badAction);
      if (!file) throw badRequest(PYPI_MESSAGES.noFile);
      const held = file;
      // deployed (or not) from here, the upload is gone either way
      file = undefined;
      await projects.upload(target, fields, held);
    } finally {
      if (file) await content.uploads.remove(target.key, file.upload).catch(() => undefined);
    }
    return reply.status(200).send({ ok: true });
  };
  const uploadSchema = {
    summary: "Uploads a distribution (`twine upload`): the file and its metadata's fields, multipart",
    params: repoKeyParams,
    body: rawBody,
  };
  app.post(`${PREFIX}/:repoKey`, { config: { access: 'public' }, schema: uploadSchema }, upload);
  app.post(`${PREFIX}/:repoKey/`, { config: { access: 'public' }, schema: uploadSchema }, upload);

  app.route<{ Params: { repoKey: string; project?: string } }>({
    method: ['GET', 'HEAD'],
    url: `${PREFIX}/:repoKey/simple/`,
    config: { access: 'public' },
    schema: { summary: 'The simple index (PEP 503, or PEP 691 JSON when asked): every project', params: repoKeyParams },
    handler: async (request, reply) => {
      const content = repoContent(request);
      const repo = await content.repository(request.params.repoKey);
      const json = wantsJson(request);
      return sendPage(request, reply, renderRoot(await new PypiProjects(content).names(repo), json), json);
    },
  });
  app.get<{ Params: { repoKey: string } }>(
    `${PREFIX}/:repoKey/simple`,
    {
      config: { access: 'public' },
      schema: { summary: 'Sends to the simple index, with its slash', params: repoKeyParams },
    },
    (request, reply) => reply.redirect(`${request.url.split('?')[0]}/`, 301),
  );

  const projectPage = async (
    request: FastifyRequest<{ Params: { repoKey: string; project: string } }>,
    reply: FastifyReply,
  ) => {
    const { repoKey, project } = request.params;
    const normalized = normalize(project);
    // PEP 503: one address per project, normalised, ending in '/'
    if (normalized !== project || !request.url.split('?')[0]!.endsWith('/')) {
      return reply.redirect(`${registryOf(request, repoKey)}/simple/${encodeURIComponent(normalized)}/`, 301);
    }
    const content = repoContent(request);
    const repo = await content.repository(repoKey);
    const json = wantsJson(request);
    const body = await new PypiProjects(content).answer(
      repo,
      normalized,
      json,
      `${registryOf(request, repo.key)}/packages`,
    );
    if (body === undefined) throw notFound(PYPI_MESSAGES.notFound);
    return sendPage(request, reply, body, json);
  };
  for (const url of [`${PREFIX}/:repoKey/simple/:project`, `${PREFIX}/:repoKey/simple/:project/`]) {
    app.route({
      method: ['GET', 'HEAD'],
      url,
      config: { access: 'public' },
      schema: {
        summary: "A project's page of the simple index: its files, with their hashes and requires-python",
        params: repoKeyParams.extend({
          project: z.string().describe('the project name (normalised, else sent there)'),
        }),
      },
      handler: projectPage,
    });
  }

  app.route<{ Params: { repoKey: string } }>({
    method: ['GET', 'HEAD'],
    url: `${PREFIX}/:repoKey/packages/*`,
    config: { access: 'public' },
    schema: { summary: 'Downloads a distribution file a project page lists', params: repoKeyAndRest },
    handler: async (request, reply) => {
      const raw = (request.raw.url ?? '').split('?')[0]!;
      const marker = '/packages/';
      const { path } = parseRequestPath(raw.slice(raw.indexOf(marker) + marker.length));
      if (!path) throw notFound(PYPI_MESSAGES.notFound);
      const content = repoContent(request);
      const repo = await content.repository(request.params.repoKey);
      const found = await content.resolve(repo, path);
      if (!found || found.item.folder === 1) throw notFound(PYPI_MESSAGES.notFound);
      return content.send(reply, found.item);
    },
  });
}
