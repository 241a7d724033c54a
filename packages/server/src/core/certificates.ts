import type { Db } from '../db/database.js';
import type { CertificatesTable } from '../db/schema.js';
import { cachedConfig } from './config-cache.js';
import type { OutboundTls } from './outbound.js';
import { unseal } from './sealing.js';

/** The seal context of a client certificate's private key. */
export const certificateSealContext = (alias: string) => `certificate:${alias}`;

/** Every certificate, by alias (cached per configuration generation). */
export function listCertificateRows(db: Db): Promise<CertificatesTable[]> {
  return cachedConfig(db, 'certificates', () => db.selectFrom('certificates').selectAll().orderBy('alias').execute());
}

export async function findCertificate(db: Db, alias: string): Promise<CertificatesTable | undefined> {
  return (await listCertificateRows(db)).find((c) => c.alias === alias);
}

/**
 * The TLS of an outbound request: the trusted authorities, and the client certificate `alias`
 * names (a remote repository's); undefined when there is neither.
 */
export async function outboundTls(db: Db, alias = ''): Promise<OutboundTls | undefined> {
  const rows = await listCertificateRows(db);
  const ca = rows.filter((c) => c.kind === 'trusted').map((c) => c.certificate);
  const client = alias ? rows.find((c) => c.alias === alias && c.kind === 'client') : undefined;
  const key = client ? await unseal(db, certificateSealContext(client.alias), client.private_key) : undefined;
  if (!ca.length && !(client && key)) return undefined;
  return { ...(ca.length ? { ca } : {}), ...(client && key ? { cert: client.certificate, key } : {}) };
}
