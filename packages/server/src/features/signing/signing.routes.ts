import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { audit } from '../../core/audit.js';
import { notFound } from '../../core/errors.js';
import { formatMessage as fill } from '@arca/contracts';
import { repoContent } from '../artifacts/index.js';
import { DEPLOYMENT_SCOPE, SIGNING_MESSAGES, SigningKeys, type SigningKeyInfo } from './signing.service.js';

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
export async function signingRestRoutes(app: FastifyInstance): Promise<void> {
  const keys = () => new SigningKeys(app.db);
  app.removeContentTypeParser(['text/plain', 'application/json']);
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
    done(null, body),
  );

  app.get(`${BASE}/public`, { config: { access: 'public' } }, async (_request, reply) =>
    sendPublic(reply, await keys().deploymentKey()),
  );
  app.get<{ Params: RepoParams }>(
    `${BASE}/public/:repoKey`,
    { config: { access: 'public' } },
    async (request, reply) => {
      const repo = await repoContent(request).repository(request.params.repoKey);
      return sendPublic(reply, await keys().keyFor(repo.key));
    },
  );

  app.get(`${BASE}s`, { config: { access: 'admin' } }, () => keys().list());

  const scopeOf = async (request: FastifyRequest<{ Params: Partial<RepoParams> }>) =>
    request.params.repoKey === undefined
      ? DEPLOYMENT_SCOPE
      : (await repoContent(request).repository(request.params.repoKey)).key;
  const target = (scope: string) => (scope ? `signing key of ${scope}` : 'deployment signing key');

  const importKey = async (request: FastifyRequest<{ Params: Partial<RepoParams>; Body: string }>) => {
    const scope = await scopeOf(request);
    const passphrase = request.headers['x-gpg-passphrase'];
    const key = await keys().import(
      scope,
      typeof request.body === 'string' ? request.body : '',
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
  app.put(`${BASE}/private`, { config: { access: 'admin' } }, importKey);
  app.put(`${BASE}/private/:repoKey`, { config: { access: 'admin' } }, importKey);

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
  app.post(`${BASE}/generate`, { config: { access: 'admin' } }, generate);
  app.post(`${BASE}/generate/:repoKey`, { config: { access: 'admin' } }, generate);

  app.delete<{ Params: RepoParams }>(`${BASE}/:repoKey`, { config: { access: 'admin' } }, async (request, reply) => {
    const scope = await scopeOf(request);
    if (!(await keys().remove(scope))) throw notFound(fill(SIGNING_MESSAGES.noRepositoryKey, { key: scope }));
    await audit(request, { category: 'security', action: 'delete', target: target(scope) });
    return reply.status(204).send();
  });
}
