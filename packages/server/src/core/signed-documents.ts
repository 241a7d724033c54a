import { createHash, sign, verify, type KeyObject } from 'node:crypto';

/**
 * Documents signed with an Ed25519 issuer key (licences, licence buckets):
 * `<prefix>.<base64url(document JSON)>.<base64url(signature of the middle part)>`, the document
 * naming its issuer key by id.
 */
export interface IssuerKey {
  id: string;
  publicKey: KeyObject;
  privateKey?: KeyObject;
}

/** Key id: the first 16 hex digits of the SHA-256 of the public key's SPKI DER. */
export function issuerKeyId(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .slice(0, 16);
}

/**
 * `<prefix>.<base64url(document JSON)>.<base64url(Ed25519 signature of prefix and payload)>`: the
 * prefix is signed too, so that a document of one kind (a licence bucket) is never taken for
 * another (a licence) by renaming it.
 */
export function signDocument(prefix: string, document: unknown, key: IssuerKey): string {
  if (!key.privateKey) throw new Error('The issuer key has no private part');
  const payload = Buffer.from(JSON.stringify(document)).toString('base64url');
  const signature = sign(null, Buffer.from(`${prefix}.${payload}`), key.privateKey).toString('base64url');
  return `${prefix}.${payload}.${signature}`;
}

/**
 * The document of a signed text, when its signature is a trusted issuer's (the `issuer` field of
 * the document names the key); `malformed` when it does not parse, `untrusted` when no trusted key
 * signed it.
 */
export function openDocument<T extends { issuer: string }>(
  prefix: string,
  text: string,
  parse: (value: unknown) => T,
  trusted: IssuerKey[],
  /**
   * How a document signed before the prefix was signed is read: with nothing but its own kind's
   * fields (a bucket renamed to a licence has more, and is refused); absent: such documents are not taken.
   */
  parseLegacy?: (value: unknown) => T,
): T | 'malformed' | 'untrusted' {
  const parts = text.trim().split('.');
  if (parts.length !== 3 || parts[0] !== prefix) return 'malformed';
  const [, payload, signature] = parts as [string, string, string];
  let value: unknown;
  let document: T;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    document = parse(value);
  } catch {
    return 'malformed';
  }
  const issuer = trusted.find((k) => k.id === document.issuer);
  if (!issuer) return 'untrusted';
  const signed = Buffer.from(signature, 'base64url');
  if (verify(null, Buffer.from(`${prefix}.${payload}`), issuer.publicKey, signed)) return document;
  if (!parseLegacy || !verify(null, Buffer.from(payload), issuer.publicKey, signed)) return 'untrusted';
  try {
    return parseLegacy(value);
  } catch {
    return 'untrusted';
  }
}

/** The public half of an issuer key as base64 SPKI DER: what `ARCA_LICENSE_ISSUER_KEYS` lists. */
export function exportIssuerPublicKey(key: IssuerKey): string {
  return key.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
}
