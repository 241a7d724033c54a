import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rawBody } from '../route-schemas.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_MESSAGES } from '@arca/contracts';
import { HttpError, withReasonPhrase } from '../../core/errors.js';
import { repoContent, systemContent } from '../../features/artifacts/index.js';
import { baseUrlOf } from '../../core/base-url.js';
import { BLOBS, OCI_ERRORS, blobPath, ociError, ociFormatTypes, parseTarget, type OciErrorCode } from './oci.layout.js';
import {
  MAX_MANIFEST_BYTES,
  deleteManifest,
  findBlob,
  finishUpload,
  getManifest,
  listTags,
  mountBlob,
  putManifest,
  referrers,
  partStart,
} from './oci.registry.js';
import { imageFacts } from './oci.image.js';
import { collectImageGarbage } from './oci.gc.js';
import { CONSOLE_API_PREFIX } from '../../core/console.plugin.js';

const CODE_BY_STATUS: Record<number, OciErrorCode> = {
  401: 'UNAUTHORIZED',
  403: 'DENIED',
  404: 'NAME_UNKNOWN',
  405: 'UNSUPPORTED',
  409: 'DENIED',
};

/** The token flow's challenge: where to get a token, for which service and scope. */
function challenge(request: FastifyRequest): string {
  const base = baseUrlOf(request);
  let scope = '';
  try {
    const rest = decodeURIComponent((request.raw.url ?? '').split('?')[0]!.replace(/^\/v2\//, ''));
    const parsed = parseTarget(rest);
    if (parsed) {
      const actions = ['GET', 'HEAD'].includes(request.method) ? 'pull' : 'pull,push';
      scope = `,scope="repository:${parsed.repoKey}/${parsed.image}:${actions}"`;
    }
  } catch {
    scope = '';
  }
  return `Bearer realm="${base}/v2/token",service="${new URL(base).host}"${scope}`;
}

async function readBody(request: FastifyRequest, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    size += (chunk as Buffer).length;
    if (size > limit) throw ociError('SIZE_INVALID', `A manifest may have at most ${limit} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const hasBody = (request: FastifyRequest) =>
  Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;

/**
 * The OCI distribution API (and Docker Registry HTTP API v2) at `/v2/`, the repository key being
 * the first component of an image's name: blobs (monolithic, chunked and mounted uploads),
 * manifests by tag and digest, tags, referrers, deletes, and the token flow Docker clients log in
 * with. Errors answer in the registry's shape, `{"errors":[{"code","message","detail"}]}`.
 */
export async function ociRoutes(app: FastifyInstance): Promise<void> {
  await app.register(registryApi);
  await app.register(dockerViews);
}

/**
 * The console's view of a tag (`POST /ui/views/dockerv2` with `repoKey` and the tag's folder or
 * manifest path): manifest digest, platforms, size, config and layers with the commands that made them.
 */
async function dockerViews(app: FastifyInstance): Promise<void> {
  const localImageRepos = async () =>
    (await systemContent(app).repositories({ rclass: 'local', packageTypes: ociFormatTypes })).map((r) => r.key);
  app.jobs.register('oci-gc', '33 3 * * *', async () => {
    const report = await collectImageGarbage(systemContent(app), await localImageRepos(), { dryRun: false });
    if (report.manifests.length || report.blobs.length)
      app.log.info(
        { manifests: report.manifests.length, blobs: report.blobs.length, bytes: report.bytes },
        'image garbage collection',
      );
  });

  // garbage collection on demand; a dry run reports what would go and changes nothing
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const gc = {
    summary: "Collects the images' garbage (untagged manifests, unreferenced blobs); a dry run changes nothing",
    body: z
      .object({
        dryRun: z.boolean().default(true).describe('report what would go (the default), or remove it'),
        graceMinutes: z.number().min(0).default(60).describe('what was pushed more recently is kept'),
      })
      .default({ dryRun: true, graceMinutes: 60 }),
  };
  typed.post(`${CONSOLE_API_PREFIX}/ui/docker/gc`, { config: { access: 'admin' }, schema: gc }, async (request) =>
    collectImageGarbage(repoContent(request), await localImageRepos(), {
      dryRun: request.body.dryRun,
      graceMs: request.body.graceMinutes * 60_000,
    }),
  );

  const view = {
    summary: 'A tag as the console shows it: digest, platforms, size, config and layers',
    body: z.looseObject({
      repoKey: z.string().describe('the repository'),
      path: z.string().describe("the tag's folder or manifest path"),
    }),
  };
  typed.post(
    `${CONSOLE_API_PREFIX}/ui/views/dockerv2`,
    { config: { access: 'public' }, schema: view },
    async (request) => {
      const { body } = request;
      const path = body.path.replace(/^\/+|\/+$/g, '');
      const content = repoContent(request);
      const repo = await content.repository(body.repoKey);
      const manifestFile = path.endsWith('/manifest.json') ? path : `${path}/manifest.json`;
      const found = await content.resolve(repo, manifestFile);
      const facts = found && (await imageFacts(content, found.repo.key, found.item));
      if (!facts) throw new HttpError(404, `'${body.repoKey}/${path}' is no image tag.`);
      return {
        tagInfo: {
          title: `${facts.image}:${facts.tag}`,
          digest: facts.digest,
          mediaType: facts.mediaType,
          totalSize: facts.totalSize,
          platforms: facts.platforms,
          ...(facts.created ? { created: facts.created } : {}),
        },
        config: facts.config ?? null,
        blobsInfo: facts.layers.map((layer) => ({
          digest: layer.digest,
          shortDigest: layer.digest.slice(7, 19),
          size: layer.size,
          mediaType: layer.mediaType,
          command: layer.command ?? '',
        })),
      };
    },
  );
}

async function registryApi(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  app.addHook('onSend', async (_request, reply) => {
    reply.header('Docker-Distribution-API-Version', 'registry/2.0');
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error instanceof HttpError ? error.statusCode : (error.statusCode ?? 500);
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ errors: [{ code: 'UNKNOWN', message: 'Internal error.', detail: null }] });
    }
    const code =
      error instanceof HttpError && error.code && error.code in OCI_ERRORS
        ? error.code
        : (CODE_BY_STATUS[status] ?? 'UNSUPPORTED');
    if (status === 401) reply.header('WWW-Authenticate', challenge(request));
    withReasonPhrase(error, reply);
    reply.status(status);
    return reply.send({ errors: [{ code, message: error.message, detail: null }] });
  });

  const config = { access: 'public' as const, challenge };

  app.get(
    '/v2/',
    { config, schema: { summary: 'The registry API base: 200 signed in, 401 with the challenge' } },
    async (request, reply) => {
      if (request.principal.kind === 'anonymous') throw new HttpError(401, AUTH_MESSAGES.loginRequired);
      return reply.send({});
    },
  );

  // Docker's token endpoint: basic credentials or an access token in, a short-lived bearer token out
  const token = { summary: 'A registry bearer token for basic credentials or an access token (`docker login`)' };
  app.get('/v2/token', { config: { access: 'public' }, schema: token }, async (request, reply) => {
    if (request.principal.kind === 'anonymous' && !(await repoContent(request).signIn.anonymousAccess())) {
      reply.header('WWW-Authenticate', 'Basic realm="Arca"');
      throw new HttpError(401, AUTH_MESSAGES.loginRequired);
    }
    if (request.principal.kind === 'user' && request.principal.via === 'registry') {
      reply.header('WWW-Authenticate', 'Basic realm="Arca"');
      throw new HttpError(401, AUTH_MESSAGES.registryTokenRenew);
    }
    const { token, seconds } = await repoContent(request).signIn.registryToken();
    return reply.send({
      token,
      access_token: token,
      expires_in: seconds,
      issued_at: new Date().toISOString(),
    });
  });

  const params = z.object({
    '*': z.string().describe('`{repoKey}/{image}/…`: blobs/, manifests/, tags/list, referrers/'),
  });
  app.route({
    method: ['GET', 'HEAD', 'DELETE'],
    url: '/v2/*',
    config,
    schema: {
      summary: 'The OCI distribution API: blobs, manifests, tags and referrers read, and deletes',
      params,
    },
    handler: async (request, reply) => handle(request, reply),
  });
  app.route({
    method: ['POST', 'PATCH', 'PUT'],
    url: '/v2/*',
    config,
    schema: {
      summary: 'The OCI distribution API: blob uploads (monolithic, chunked, mounted) and manifests pushed',
      params,
      body: rawBody,
    },
    handler: async (request, reply) => handle(request, reply),
  });
}

async function handle(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  let rest: string;
  try {
    rest = decodeURIComponent((request.raw.url ?? '').split('?')[0]!.replace(/^\/v2\//, ''));
  } catch {
    throw ociError('NAME_INVALID', 'The request path is not valid.');
  }
  const parsed = parseTarget(rest);
  if (!parsed) throw new HttpError(404, 'Not a registry call.');
  const { repoKey, image, target } = parsed;
  const query = request.query as Record<string, string | undefined>;
  const content = repoContent(request);
  const name = `${repoKey}/${image}`;
  const method = request.method;

  if (target.kind === 'blob') {
    const repo = await content.repository(repoKey);
    if (method === 'DELETE') {
      if (!(await content.stored(repoKey, blobPath(image, target.digest))))
        throw ociError('BLOB_UNKNOWN', `Blob '${target.digest}' is not in '${name}'.`);
      await content.remove(repo, blobPath(image, target.digest));
      return reply.status(202).send();
    }
    if (method !== 'GET' && method !== 'HEAD') throw ociError('UNSUPPORTED', `${method} is not a blob call.`);
    const item = await findBlob(content, repo, image, target.digest);
    reply.header('Docker-Content-Digest', target.digest);
    return content.send(reply, item);
  }

  if (target.kind === 'manifest') {
    if (method === 'PUT') {
      const body = await readBody(request, MAX_MANIFEST_BYTES);
      const { digest, subject } = await putManifest(
        content,
        repoKey,
        image,
        target.reference,
        body,
        request.headers['content-type'],
      );
      if (subject) reply.header('OCI-Subject', subject);
      return reply
        .status(201)
        .header('Location', `/v2/${name}/manifests/${digest}`)
        .header('Docker-Content-Digest', digest)
        .send();
    }
    if (method === 'DELETE') {
      await deleteManifest(content, await content.repository(repoKey), image, target.reference);
      return reply.status(202).send();
    }
    if (method !== 'GET' && method !== 'HEAD') throw ociError('UNSUPPORTED', `${method} is not a manifest call.`);
    const manifest = await getManifest(content, await content.repository(repoKey), image, target.reference);
    await content.admit(manifest.item);
    reply
      .header('Content-Type', manifest.mediaType)
      .header('Docker-Content-Digest', manifest.digest)
      .header('ETag', `"${manifest.digest}"`)
      .header('Content-Length', manifest.body.length);
    return reply.send(method === 'HEAD' ? undefined : manifest.body);
  }

  if (target.kind === 'tags') {
    const all = await listTags(content, await content.repository(repoKey), image);
    const n = query.n !== undefined ? Math.max(0, Number(query.n) || 0) : undefined;
    const after = query.last ? all.filter((t) => t > query.last!) : all;
    const tags = n !== undefined ? after.slice(0, n) : after;
    if (n !== undefined && after.length > n && tags.length)
      reply.header('Link', `</v2/${name}/tags/list?n=${n}&last=${encodeURIComponent(tags.at(-1)!)}>; rel="next"`);
    return reply.send({ name, tags });
  }

  if (target.kind === 'referrers') {
    const index = await referrers(content, await content.repository(repoKey), image, target.digest, query.artifactType);
    if (query.artifactType) reply.header('OCI-Filters-Applied', 'artifactType');
    return reply.type('application/vnd.oci.image.index.v1+json').send(index);
  }

  // blob uploads
  const location = (id: string) => `/v2/${name}/blobs/uploads/${id}`;
  const uploadTarget = await content.writeTarget(repoKey);
  await content.authorize('deploy', uploadTarget.key, `${image}/${BLOBS}`);
  const created = (digest: string) =>
    reply.status(201).header('Location', `/v2/${name}/blobs/${digest}`).header('Docker-Content-Digest', digest).send();
  /** The upload completed with its digest (and the request's body as its last part). */
  const complete = async (id: string, digest: string) => {
    const last = hasBody(request) ? request.raw : undefined;
    await finishUpload(content, uploadTarget, image, id, digest, last);
    return created(digest);
  };
  if (method === 'POST' && !target.session) {
    if (query.mount && query.from && (await mountBlob(content, uploadTarget, image, query.mount, query.from))) {
      return created(query.mount);
    }
    const id = await content.uploads.create(uploadTarget.key);
    if (query.digest) return complete(id, query.digest);
    return reply
      .status(202)
      .header('Location', location(id))
      .header('Docker-Upload-UUID', id)
      .header('Range', '0-0')
      .header('Content-Length', 0)
      .send();
  }
  const id = target.session;
  if (method === 'GET') {
    const size = await content.uploads.size(uploadTarget.key, id);
    return reply
      .status(204)
      .header('Location', location(id))
      .header('Docker-Upload-UUID', id)
      .header('Range', `0-${Math.max(0, size - 1)}`)
      .send();
  }
  if (method === 'PATCH') {
    const start = partStart(request.headers['content-range'], request.headers['content-length']);
    const size = await content.uploads.append(uploadTarget.key, id, request.raw, start);
    return reply
      .status(202)
      .header('Location', location(id))
      .header('Docker-Upload-UUID', id)
      .header('Range', `0-${Math.max(0, size - 1)}`)
      .send();
  }
  if (method === 'PUT') {
    if (!query.digest) throw ociError('DIGEST_INVALID', 'Completing an upload needs its digest (?digest=sha256:…).');
    await content.uploads.size(uploadTarget.key, id);
    return complete(id, query.digest);
  }
  if (method === 'DELETE') {
    await content.uploads.remove(uploadTarget.key, id);
    return reply.status(204).send();
  }
  throw ociError('UNSUPPORTED', `${method} is not an upload call.`);
}
