import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  KEY_MESSAGES,
  certificateBodySchema,
  certificateSchema,
  keyPairBodySchema,
  keyPairSchema,
  keyPairUseBodySchema,
} from '@arca/contracts';
import { addCertificate, listCertificates, removeCertificate } from './keys.certificates.js';
import { audit, auditActor } from '../../core/audit.js';
import { badRequest, notFound } from '../../core/errors.js';
import { findRepository } from '../repositories/index.js';
import { createKeyPair, deleteKeyPair, getKeyPair, listKeyPairs, privateKeyOf, verifyKeyPair } from './keys.service.js';

const nameParams = z.object({ name: z.string() });

/** Named GPG and RSA key pairs (`ui/security/keyPairs`), for administrators. */
export const keysRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/ui/security/keyPairs',
    { config: { access: 'admin' }, schema: { response: { 200: z.array(keyPairSchema) } } },
    () => listKeyPairs(app.db),
  );
  app.post(
    '/ui/security/keyPairs',
    { config: { access: 'admin' }, schema: { body: keyPairBodySchema, response: { 201: keyPairSchema } } },
    async (request, reply) => reply.status(201).send(await createKeyPair(request, request.body)),
  );
  app.delete(
    '/ui/security/keyPairs/:name',
    { config: { access: 'admin' }, schema: { params: nameParams } },
    async (request, reply) => {
      await deleteKeyPair(request, request.params.name);
      return reply.status(204).send();
    },
  );
  app.post(
    '/ui/security/keyPairs/:name/verify',
    {
      config: { access: 'admin' },
      schema: { params: nameParams, response: { 200: z.object({ valid: z.boolean(), message: z.string() }) } },
    },
    async (request) => {
      const valid = await verifyKeyPair(app.db, request.params.name);
      return { valid, message: valid ? KEY_MESSAGES.verified : KEY_MESSAGES.publicMismatch };
    },
  );
  /** The public half, as a file: armored OpenPGP or PEM. */
  app.get(
    '/ui/security/keyPairs/:name/public',
    { config: { access: 'admin' }, schema: { params: nameParams } },
    async (request, reply) => {
      const pair = await getKeyPair(app.db, request.params.name);
      const gpg = pair.pairType === 'GPG';
      return reply
        .type(gpg ? 'application/pgp-keys' : 'application/x-pem-file')
        .header('content-disposition', `attachment; filename="${pair.pairName}.${gpg ? 'asc' : 'pem'}"`)
        .send(pair.publicKey);
    },
  );
  app.get(
    '/ui/security/certificates',
    { config: { access: 'admin' }, schema: { response: { 200: z.array(certificateSchema) } } },
    () => listCertificates(app.db),
  );
  app.post(
    '/ui/security/certificates',
    { config: { access: 'admin' }, schema: { body: certificateBodySchema, response: { 201: certificateSchema } } },
    async (request, reply) => reply.status(201).send(await addCertificate(request, request.body)),
  );
  app.delete(
    '/ui/security/certificates/:alias',
    { config: { access: 'admin' }, schema: { params: z.object({ alias: z.string() }) } },
    async (request, reply) => {
      await removeCertificate(request, request.params.alias);
      return reply.status(204).send();
    },
  );

  /** The keys that sign repository metadata: the deployment's and the repositories' own. */
  app.get('/ui/security/signingKeys', { config: { access: 'admin' } }, () => app.signing.list());
  /** A repository's own signing key removed: it signs with the deployment's again. */
  app.delete(
    '/ui/security/signingKeys/:repoKey',
    { config: { access: 'admin' }, schema: { params: z.object({ repoKey: z.string() }) } },
    async (request, reply) => {
      if (!request.params.repoKey || !(await app.signing.remove(request.params.repoKey))) {
        throw notFound(`Repository '${request.params.repoKey}' has no signing key of its own.`);
      }
      await audit(request, {
        category: 'security',
        action: 'delete',
        target: `signing key of ${request.params.repoKey}`,
      });
      return reply.status(204).send();
    },
  );

  /** Puts a GPG key pair to sign the deployment's repository metadata, or one repository's. */
  app.post(
    '/ui/security/keyPairs/:name/use',
    { config: { access: 'admin' }, schema: { params: nameParams, body: keyPairUseBodySchema } },
    async (request) => {
      const { pair, privateKey } = await privateKeyOf(app.db, request.params.name);
      if (pair.type !== 'GPG') throw badRequest(KEY_MESSAGES.notGpg);
      if (request.body.repoKey && !(await findRepository(app.db, request.body.repoKey))) {
        throw notFound(`There is no repository '${request.body.repoKey}'.`);
      }
      const key = await app.signing.import(request.body.repoKey, privateKey, undefined, auditActor(request).actor);
      await audit(request, {
        category: 'security',
        action: 'import',
        target: request.body.repoKey ? `signing key of ${request.body.repoKey}` : 'deployment signing key',
        after: { fingerprint: key.fingerprint, keyPair: pair.name },
      });
      return key;
    },
  );
};

/**
 * Artifactory's certificate calls: `GET /api/system/security/certificates`, `POST …/{alias}` with
 * the PEM (certificate and key) as the body, `DELETE …/{alias}` — client certificates.
 */
export const certificatesRestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.removeContentTypeParser(['text/plain']);
  app.addContentTypeParser(
    ['text/plain', 'application/x-pem-file'],
    { parseAs: 'string', bodyLimit: 262_144 },
    (_r, body, done) => done(null, body),
  );
  const base = '/artifactory/api/system/security/certificates';
  app.get(base, { config: { access: 'admin' } }, async () =>
    (await listCertificates(app.db)).map((c) => ({
      certificateAlias: c.alias,
      issuedTo: c.subject,
      issuedBy: c.issuer,
      issuedOn: c.validFrom,
      validUntil: c.validUntil,
      fingerprint: c.fingerprint,
    })),
  );
  app.post(
    `${base}/:alias`,
    { config: { access: 'admin' }, schema: { params: z.object({ alias: z.string() }) } },
    async (request) => {
      const parsed = certificateBodySchema.safeParse({
        alias: request.params.alias,
        kind: 'client',
        pem: request.body,
      });
      if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
      await addCertificate(request, parsed.data);
      return { status: 200, message: `The certificate was successfully installed with alias ${request.params.alias}` };
    },
  );
  app.delete(
    `${base}/:alias`,
    { config: { access: 'admin' }, schema: { params: z.object({ alias: z.string() }) } },
    async (request) => {
      await removeCertificate(request, request.params.alias);
      return { status: 200, message: `The certificate ${request.params.alias} was deleted` };
    },
  );
};
