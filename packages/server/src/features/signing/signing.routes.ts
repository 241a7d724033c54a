import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SIGNING_MESSAGES,
  formatMessage as fill,
  signingKeyImportSchema,
  signingKeyInfoSchema,
  signingKeyListSchema,
  signingRepoParamsSchema,
  type SigningKeyInfo,
} from '@arca/contracts';
import { audit } from '../../core/audit.js';
import { notFound } from '../../core/errors.js';
import { repoContent } from '../artifacts/index.js';
import { DEPLOYMENT_SCOPE, SigningKeys } from './signing.service.js';

const BASE = '/artifactory/api/gpg/key';

type RepoParams = { repoKey: string };

const actorOf = (request: FastifyRequest) =>
  request.principal.kind === 'user' ? request.principal.user.name : 'anonymous';

const sendPublic = (reply: FastifyReply, key: SigningKeyInfo) =>
  reply.type('application/pgp-keys').header('X-GPG-Key-Fingerprint', key.fingerprint).send(key.publicKey);

/**
 * The signing keys at Artifactory's addresses: `GET /api/gpg/key/public` answers the
 * deployment's public key to anyone (apt, dnf and rpm import it), `PUT /api/gpg/key/private` takes
 * an armored private key (its passphrase in `X-GPG-PASSPHRASE`). A repository's own key is kept
 * under the repository's key (`/api/gpg/key/public/{repoKey}` answers the one that signs it).
 * Only administrators change keys; every change is audited without its secret.
 */
export async function signingRestRoutes(untyped: FastifyInstance): Promise<void> {
  const app = untyped.withTypeProvider<ZodTypeProvider>();
  const keys = () => new SigningKeys(app.db);
  app.removeContentTypeParser(['text/plain', 'application/json']);
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
    done(null, body),
  );

  const publicKey = { 200: z.string().describe('the armored public key (application/pgp-keys)') };
  app.get(
    `${BASE}/public`,
    { config: { access: 'public' }, schema: { summary: "The deployment's public signing key", response: publicKey } },
    async (_request, reply) => sendPublic(reply, await keys().deploymentKey()),
  );
  app.get(
    `${BASE}/public/:repoKey`,
    {
      config: { access: 'public' },
      schema: {
        summary: "The public key that signs a repository's metadata (its own, else the deployment's)",
        params: signingRepoParamsSchema,
        response: publicKey,
      },
    },
    async (request, reply) => {
      const repo = await repoContent(request).repository(request.params.repoKey);
      return sendPublic(reply, await keys().keyFor(repo.key));
    },
  );

  app.get(
    `${BASE}s`,
    {
      config: { access: 'admin' },
      schema: { summary: 'Every signing key, without its private half', response: { 200: signingKeyListSchema } },
    },
    () => keys().list(),
  );

  const scopeOf = async (request: FastifyRequest & { params: Partial<RepoParams> }) =>
    request.params.repoKey === undefined
      ? DEPLOYMENT_SCOPE
      : (await repoContent(request).repository(request.params.repoKey)).key;
  const target = (scope: string) => (scope ? `signing key of ${scope}` : 'deployment signing key');

  const importKey = async (request: FastifyRequest<{ Params: Partial<RepoParams>; Body: string }>) => {
    const scope = await scopeOf(request);
    const passphrase = request.headers['x-gpg-passphrase'];
    const key = await keys().import(
      scope,
      request.body,
      typeof passphrase === 'string' ? passphrase : undefined,
      actorOf(request),
    );
    await audit(request, {
      category: 'security',
      action: 'import',
      target: target(scope),
      after: { fingerprint: key.fingerprint },
    });
    return key;
  };
  const imported = {
    summary: 'Imports a private signing key (its passphrase in X-GPG-PASSPHRASE)',
    body: signingKeyImportSchema.nullish().transform((armored) => armored ?? ''),
    response: { 200: signingKeyInfoSchema },
  };
  app.put(`${BASE}/private`, { config: { access: 'admin' }, schema: imported }, importKey);
  app.put(
    `${BASE}/private/:repoKey`,
    {
      config: { access: 'admin' },
      schema: { ...imported, summary: "Imports a repository's own signing key", params: signingRepoParamsSchema },
    },
    importKey,
  );

  const generate = async (request: FastifyRequest<{ Params: Partial<RepoParams> }>) => {
    const scope = await scopeOf(request);
    const key = await keys().generate(scope, actorOf(request));
    await audit(request, {
      category: 'security',
      action: 'generate',
      target: target(scope),
      after: { fingerprint: key.fingerprint },
    });
    return key;
  };
  const generated = { summary: "Generates the deployment's signing key", response: { 200: signingKeyInfoSchema } };
  app.post(`${BASE}/generate`, { config: { access: 'admin' }, schema: generated }, generate);
  app.post(
    `${BASE}/generate/:repoKey`,
    {
      config: { access: 'admin' },
      schema: {
        ...generated,
        summary: 'Generates a signing key of its own for a repository',
        params: signingRepoParamsSchema,
      },
    },
    generate,
  );

  const removed = {
    summary: "Removes a repository's own signing key: it signs with the deployment's again",
    params: signingRepoParamsSchema,
  };
  app.delete(`${BASE}/:repoKey`, { config: { access: 'admin' }, schema: removed }, async (request, reply) => {
    const scope = await scopeOf(request);
    if (!(await keys().remove(scope))) throw notFound(fill(SIGNING_MESSAGES.noRepositoryKey, { key: scope }));
    await audit(request, { category: 'security', action: 'delete', target: target(scope) });
    return reply.status(204).send();
  });
}
