import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { CERTIFICATE_MESSAGES, formatMessage, type Certificate, type CertificateBody } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { CertificatesTable } from '../../db/schema.js';
import { audit, auditActor } from '../../core/audit.js';
import { certificateSealContext, findCertificate, listCertificateRows } from '../../core/certificates.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { seal } from '../../core/sealing.js';
import { listRepositories } from '../repositories/index.js';

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const KEY_BLOCK =
  /-----BEGIN (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----[\s\S]+?-----END (?:RSA |EC |ENCRYPTED )?PRIVATE KEY-----/;

async function usersOf(db: Db): Promise<Map<string, string[]>> {
  const users = new Map<string, string[]>();
  for (const repo of await listRepositories(db)) {
    if (repo.client_tls_certificate) {
      users.set(repo.client_tls_certificate, [...(users.get(repo.client_tls_certificate) ?? []), repo.key]);
    }
  }
  return users;
}

function answerOf(row: CertificatesTable, usedBy: string[]): Certificate {
  return {
    alias: row.alias,
    kind: row.kind,
    subject: row.subject,
    issuer: row.issuer,
    fingerprint: row.fingerprint,
    validFrom: new Date(Number(row.valid_from)).toISOString(),
    validUntil: new Date(Number(row.valid_until)).toISOString(),
    usedBy,
    created: new Date(Number(row.created_at)).toISOString(),
    createdBy: row.created_by,
  };
}

export async function listCertificates(db: Db): Promise<Certificate[]> {
  const users = await usersOf(db);
  return (await listCertificateRows(db)).map((row) => answerOf(row, users.get(row.alias) ?? []));
}

/**
 * Adds a certificate from PEM: a client certificate (its chain may follow) with its unencrypted
 * private key, which must belong to it; or a trusted authority, without a key.
 */
export async function addCertificate(request: FastifyRequest, body: CertificateBody): Promise<Certificate> {
  const row = await prepareCertificate(request, body);
  await request.server.db.transaction().execute((trx) => insertCertificate(request, row, trx));
  return answerOf(row, []);
}

/** A certificate row checked and ready to insert (its key sealed): what `addCertificate` adds. */
export async function prepareCertificate(request: FastifyRequest, body: CertificateBody): Promise<CertificatesTable> {
  const db = request.server.db;
  const kind = body.kind ?? 'client';
  if (await findCertificate(db, body.alias)) {
    throw conflict(formatMessage(CERTIFICATE_MESSAGES.aliasTaken, { alias: body.alias }), 'alias');
  }
  const blocks = body.pem.match(CERTIFICATE_BLOCK) ?? [];
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(blocks[0] ?? '');
  } catch {
    throw badRequest(CERTIFICATE_MESSAGES.noCertificate, 'pem');
  }
  const keyPem = body.pem.match(KEY_BLOCK)?.[0];
  let sealedKey = '';
  if (kind === 'trusted') {
    if (keyPem) throw badRequest(CERTIFICATE_MESSAGES.keyForTrusted, 'pem');
  } else {
    let key: KeyObject;
    try {
      if (!keyPem || keyPem.includes('ENCRYPTED')) throw new Error('no key');
      key = createPrivateKey(keyPem);
    } catch {
      throw badRequest(CERTIFICATE_MESSAGES.noKey, 'pem');
    }
    if (!certificate.checkPrivateKey(key)) throw badRequest(CERTIFICATE_MESSAGES.keyMismatch, 'pem');
    sealedKey = await seal(
      db,
      certificateSealContext(body.alias),
      key.export({ type: 'pkcs8', format: 'pem' }).toString(),
    );
  }
  const row: CertificatesTable = {
    alias: body.alias,
    kind,
    certificate: blocks.map((b) => `${b}\n`).join(''),
    private_key: sealedKey,
    subject: certificate.subject.replace(/\n/g, ', '),
    issuer: certificate.issuer.replace(/\n/g, ', '),
    fingerprint: certificate.fingerprint256,
    valid_from: Date.parse(certificate.validFrom),
    valid_until: Date.parse(certificate.validTo),
    created_at: Date.now(),
    created_by: auditActor(request).actor,
  };
  return row;
}

/** Inserts a prepared certificate with its audit entry, in the caller's transaction. */
export async function insertCertificate(request: FastifyRequest, row: CertificatesTable, trx: Db): Promise<void> {
  await trx.insertInto('certificates').values(row).execute();
  await audit(
    request,
    {
      category: 'security',
      action: 'create',
      target: `certificate ${row.alias}`,
      after: { kind: row.kind, subject: row.subject, fingerprint: row.fingerprint },
    },
    trx,
  );
}

/** Removes a certificate no remote repository presents. */
export async function removeCertificate(request: FastifyRequest, alias: string): Promise<void> {
  const db = request.server.db;
  const row = await findCertificate(db, alias);
  if (!row) throw notFound(formatMessage(CERTIFICATE_MESSAGES.notFound, { alias }));
  const users = (await usersOf(db)).get(alias) ?? [];
  if (users.length) throw conflict(formatMessage(CERTIFICATE_MESSAGES.inUse, { alias, users: users.join(', ') }));
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('certificates').where('alias', '=', alias).execute();
    await audit(request, { category: 'security', action: 'delete', target: `certificate ${alias}` }, trx);
  });
}
