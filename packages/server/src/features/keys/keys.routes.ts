import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  KEY_MESSAGES,
  artifactSignatureSchema,
  itemRefSchema,
  trustedKeyBodySchema,
  keyStoreEntrySchema,
  keyStoreImportBodySchema,
  keyStoreReadBodySchema,
  trustedKeySchema,
  certificateBodySchema,
  certificateSchema,
  keyPairBodySchema,
  keyPairSchema,
  keyPairUseBodySchema,
} from '@arca/contracts';
import { addCertificate, listCertificates, removeCertificate } from './keys.certificates.js';
import { normalizeItemPath } from '../../core/artifact-path.js';
import { audit, auditActor } from '../../core/audit.js';
import { badRequest, notFound } from '../../core/errors.js';
import { findRepository } from '../repositories/index.js';
import { repoContent } from '../artifacts/index.js';
import type { SigningKeys } from '../signing/index.js';
import { importKeyStore, readKeyStore } from './keys.keystore.js';
import { addTrustedKey, checkSignature, getTrustedKey, listTrustedKeys, removeTrustedKey } from './keys.trusted.js';
import { createKeyPair, deleteKeyPair, getKeyPair, listKeyPairs, privateKeyOf, verifyKeyPair } from './keys.service.js';

const nameParams = z.object({ name: z.string() });
/** A detached signature is a few hundred bytes; anything far larger beside a file is no signature. */
const SIGNATURE_MAX_BYTES = 65_536;

/** Named GPG and RSA key pairs (`ui/security/keyPairs`), for administrators. */
export const keysRoutes: FastifyPluginAsyncZod<{ signing: SigningKeys }> = async (app, { signing }) => {
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

  app.get(
    '/ui/security/trustedKeys',
    { config: { access: 'admin' }, schema: { response: { 200: z.array(trustedKeySchema) } } },
    () => listTrustedKeys(app.db),
  );
  app.post(
    '/ui/security/trustedKeys',
    { config: { access: 'admin' }, schema: { body: trustedKeyBodySchema, response: { 201: trustedKeySchema } } },
    async (request, reply) => reply.status(201).send(await addTrustedKey(request, request.body)),
  );
  app.delete(
    '/ui/security/trustedKeys/:kid',
    { config: { access: 'admin' }, schema: { params: z.object({ kid: z.string().max(64) }) } },
    async (request, reply) => {
      await removeTrustedKey(request, request.params.kid);
      return reply.status(204).send();
    },
  );

  /** Java key stores: what one holds, and its chosen entries imported as certificates. */
  app.post(
    '/ui/security/keyStore/entries',
    {
      config: { access: 'admin' },
      bodyLimit: 2 * 1024 * 1024,
      schema: { body: keyStoreReadBodySchema, response: { 200: z.array(keyStoreEntrySchema) } },
    },
    (request) => readKeyStore(request, request.body),
  );
  app.post(
    '/ui/security/keyStore/import',
    {
      config: { access: 'admin' },
      bodyLimit: 2 * 1024 * 1024,
      schema: { body: keyStoreImportBodySchema, response: { 201: z.array(certificateSchema) } },
    },
    async (request, reply) => reply.status(201).send(await importKeyStore(request, request.body)),
  );

  /** What the detached signature beside a file (`.asc`, `.sig`) says of it, against the trusted keys. */
  app.get(
    '/ui/artifactsignature',
    {
      config: { access: 'public' },
      schema: {
        querystring: itemRefSchema.transform((ref) => ({ repoKey: ref.repoKey, path: normalizeItemPath(ref.path) })),
        response: { 200: artifactSignatureSchema },
      },
    },
    async (request) => {
      const content = repoContent(request);
      const repo = await content.repository(request.query.repoKey);
      const file = await content.resolve(repo, request.query.path);
      if (!file || file.item.folder) throw notFound();
      for (const suffix of ['.asc', '.sig']) {
        const signature = await content.resolve(repo, `${request.query.path}${suffix}`);
        if (!signature || signature.item.folder) continue;
        if (signature.item.size > SIGNATURE_MAX_BYTES) break;
        return checkSignature(
          app.db,
          `${request.query.path}${suffix}`,
          await content.read(signature.item),
          content.open(file.item),
        );
      }
      return {
        signaturePath: null,
        state: null,
        keyId: '',
        alias: '',
        userIds: [],
        signedAt: null,
        message: 'There is no signature beside the file.',
      };
    },
  );

  /** The keys that sign repository metadata: the deployment's and the repositories' own. */
  app.get('/ui/security/signingKeys', { config: { access: 'admin' } }, () => signing.list());
  /** A repository's own signing key removed: it signs with the deployment's again. */
  app.delete(
    '/ui/security/signingKeys/:repoKey',
    { config: { access: 'admin' }, schema: { params: z.object({ repoKey: z.string() }) } },
    async (request, reply) => {
      if (!request.params.repoKey || !(await signing.remove(request.params.repoKey))) {
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
      const key = await signing.import(request.body.repoKey, privateKey, undefined, auditActor(request).actor);
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

/**
 * Artifactory's trusted-key calls (`/api/security/keys/trusted`): list, add `{alias, public_key}`,
 * read and delete by key id.
 */
export const trustedKeysRestRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/artifactory/api/security/keys/trusted';
  const shape = (key: Awaited<ReturnType<typeof getTrustedKey>>) => ({
    kid: key.kid,
    fingerprint: key.fingerprint,
    key: key.publicKey,
    alias: key.alias,
    issued_on: key.issuedOn,
    issued_by: key.userIds[0] ?? '',
    valid_until: key.validUntil,
  });
  app.get(base, { config: { access: 'admin' } }, async () => ({ keys: (await listTrustedKeys(app.db)).map(shape) }));
  app.post(
    base,
    { config: { access: 'admin' }, schema: { body: z.object({ alias: z.string(), public_key: z.string() }) } },
    async (request, reply) => {
      const parsed = trustedKeyBodySchema.safeParse({ alias: request.body.alias, publicKey: request.body.public_key });
      if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
      return reply.status(201).send(shape(await addTrustedKey(request, parsed.data)));
    },
  );
  app.get(
    `${base}/:kid`,
    { config: { access: 'admin' }, schema: { params: z.object({ kid: z.string().max(64) }) } },
    async (request) => shape(await getTrustedKey(app.db, request.params.kid)),
  );
  app.delete(
    `${base}/:kid`,
    { config: { access: 'admin' }, schema: { params: z.object({ kid: z.string().max(64) }) } },
    async (request, reply) => {
      await removeTrustedKey(request, request.params.kid);
      return reply.status(204).send();
    },
  );
};
