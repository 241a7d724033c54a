import type { FastifyReply, FastifyRequest } from 'fastify';
import { itemCreatedSchema } from '@arca/contracts';
import { baseUrlOf } from '../../core/base-url.js';
import { repoContent, type DeployRequest } from './artifacts.content.js';
import type { PlainPaths } from './artifacts.formats.js';
import { headerValue, repoAndPath } from './artifacts.http.js';
import { checksumsOf } from './artifacts.service.js';
import { itemCreated } from './artifacts.uris.js';

/**
 * A `PUT` of a file at `{prefix}{repoKey}/{path}` with the raw request body, as Artifactory takes
 * it (matrix properties, checksum headers, deploy by checksum): the hooks of the format serving
 * the target repository, when it has any, decide before anything is stored and recalculate what
 * is derived after. Answers 201 with the stored item.
 */
export async function deployAtPath(
  request: FastifyRequest,
  reply: FastifyReply,
  prefix: string,
  hooksFor: (packageType: string) => PlainPaths | undefined,
): Promise<FastifyReply> {
  const { repoKey, path, properties } = repoAndPath(request, prefix);
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
  const hooks = path ? hooksFor(target.package_type) : undefined;
  if (hooks) {
    await content.authorize('deploy', target.key, path);
    const decided = await hooks.deploy(content, target, deploy);
    if ('taken' in decided) {
      request.raw.resume();
      const item = decided.taken;
      if (!item) return reply.status(201).send({ repo: target.key, path: `/${path}` });
      const checksums = await checksumsOf(request.server.db, item.sha256!);
      return reply
        .status(201)
        .send(itemCreatedSchema.parse(itemCreated(baseUrlOf(request), { repoKey: target.key, item, checksums })));
    }
    deploy = decided;
  }
  // the write target resolved above serves the deploy too: one lookup per request
  const deployed = await content.deploy({ ...deploy, target });
  await hooks?.changed(target, deployed.item.path);
  return reply.status(201).send(itemCreatedSchema.parse(itemCreated(baseUrlOf(request), deployed)));
}
