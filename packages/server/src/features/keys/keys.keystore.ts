import { X509Certificate } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { toPem } from 'jks-js';
import {
  KEYSTORE_MESSAGES,
  formatMessage,
  type Certificate,
  type KeyStoreEntry,
  type KeyStoreImportBody,
  type KeyStoreReadBody,
} from '@arca/contracts';
import type { CertificatesTable } from '../../db/schema.js';
import { listCertificateRows } from '../../core/certificates.js';
import { badRequest } from '../../core/errors.js';
import { insertCertificate, listCertificates, prepareCertificate } from './keys.certificates.js';

type Opened = Record<string, { cert: string; key: string } | { ca: string }>;

/** Opens a JKS or PKCS#12 key store with its password: its entries as PEM. */
function open(body: KeyStoreReadBody): Opened {
  const bytes = Buffer.from(body.file, 'base64');
  if (bytes.length > 1024 * 1024) throw badRequest(KEYSTORE_MESSAGES.tooLarge, 'file');
  try {
    return toPem(bytes, body.password ?? '') as Opened;
  } catch (error) {
    const message = (error as Error).message;
    if (/password|MAC could not be verified/i.test(message))
      throw badRequest(KEYSTORE_MESSAGES.wrongPassword, 'password');
    throw badRequest(KEYSTORE_MESSAGES.notKeyStore, 'file');
  }
}

/** What a key store holds, entry by entry, and which of its certificates Arca keeps already. */
export async function readKeyStore(request: FastifyRequest, body: KeyStoreReadBody): Promise<KeyStoreEntry[]> {
  const opened = open(body);
  const kept = new Map((await listCertificateRows(request.server.db)).map((row) => [row.fingerprint, row.alias]));
  return Object.entries(opened)
    .map(([entry, pem]) => {
      const certificate = new X509Certificate('ca' in pem ? pem.ca : pem.cert);
      return {
        entry,
        kind: 'ca' in pem ? ('trusted' as const) : ('client' as const),
        subject: certificate.subject.replace(/\n/g, ', '),
        issuer: certificate.issuer.replace(/\n/g, ', '),
        fingerprint: certificate.fingerprint256,
        validUntil: new Date(certificate.validTo).toISOString(),
        keptAs: kept.get(certificate.fingerprint256) ?? '',
      };
    })
    .sort((a, b) => a.entry.localeCompare(b.entry));
}

/**
 * Imports the chosen entries of a key store as certificates under the aliases given: all of them
 * in one transaction, or none when one is refused.
 */
export async function importKeyStore(request: FastifyRequest, body: KeyStoreImportBody): Promise<Certificate[]> {
  const opened = open(body);
  const aliases = new Set<string>();
  const rows: CertificatesTable[] = [];
  for (const chosen of body.entries) {
    const pem = opened[chosen.entry];
    if (!pem) throw badRequest(formatMessage(KEYSTORE_MESSAGES.noEntry, { entry: chosen.entry }), 'entries');
    if (aliases.has(chosen.alias))
      throw badRequest(formatMessage(KEYSTORE_MESSAGES.aliasTwice, { alias: chosen.alias }), 'entries');
    aliases.add(chosen.alias);
    rows.push(
      await prepareCertificate(
        request,
        'ca' in pem
          ? { alias: chosen.alias, kind: 'trusted', pem: pem.ca }
          : { alias: chosen.alias, kind: 'client', pem: `${pem.cert.trim()}\n${pem.key.trim()}\n` },
      ),
    );
  }
  await request.server.db.transaction().execute(async (trx) => {
    for (const row of rows) await insertCertificate(request, row, trx);
  });
  return (await listCertificates(request.server.db)).filter((c) => aliases.has(c.alias));
}
