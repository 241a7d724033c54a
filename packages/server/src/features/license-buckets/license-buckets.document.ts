import { randomUUID } from 'node:crypto';
import {
  LICENSE_BUCKET_MESSAGES,
  licenseBucketDocumentSchema,
  licenseBucketFileSchema,
  type LicenseBucketDocument,
  type LicenseEdition,
} from '@arca/contracts';
import { badRequest } from '../../core/errors.js';
import { openDocument, signDocument, type IssuerKey } from '../../core/signed-documents.js';

/** What buckets need of the licence service: its keys, verifying a licence, issuing one. */
export interface LicenseIssuer {
  readonly ownKey: IssuerKey;
  readonly trusted: IssuerKey[];
  verify(text: string, now?: number): { id: string; edition: string; licensee: string };
  issue(options: {
    edition: Exclude<LicenseEdition, 'NONE'>;
    licensee: string;
    days: number | null;
    now?: number;
  }): string;
}

/** Bucket keys read `ARCA-BUCKET-1.<base64url(document JSON)>.<base64url(Ed25519 signature)>`. */
const PREFIX = 'ARCA-BUCKET-1';

/** A bucket as the file it is downloaded as (and added from): readable fields, then the signed key. */
export function bucketFile(document: LicenseBucketDocument, key: string, name?: string): string {
  return `${JSON.stringify(
    {
      identifier: document.id,
      ...(name ? { name } : {}),
      license_type: document.edition,
      subject: document.licensee,
      issued_date: document.issuedAt,
      valid_date: document.expiresAt,
      quantity: document.licenses.length,
      key,
    },
    null,
    2,
  )}\n`;
}

/** The signed key in a bucket file's text, or the text itself when it is a bare key. */
function keyOf(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return trimmed.replace(/\s+/g, '');
  try {
    return licenseBucketFileSchema.parse(JSON.parse(trimmed)).key.trim();
  } catch {
    throw badRequest(LICENSE_BUCKET_MESSAGES.invalid);
  }
}

/**
 * Opens a bucket: its signature a trusted issuer's, every licence in it valid on its own and of
 * the bucket's edition and licensee, none twice, the bucket not expired. Anything else is refused
 * with the one message a user can act on.
 */
export function openBucket(
  text: string,
  license: LicenseIssuer,
  now = Date.now(),
): { document: LicenseBucketDocument; key: string; licenseIds: string[] } {
  const key = keyOf(text);
  const opened = openDocument(
    PREFIX,
    key,
    (v) => licenseBucketDocumentSchema.parse(v),
    license.trusted,
    (v) => licenseBucketDocumentSchema.strict().parse(v),
  );
  if (opened === 'malformed' || opened === 'untrusted') throw badRequest(LICENSE_BUCKET_MESSAGES.invalid);
  if (Date.parse(opened.expiresAt) <= now) throw badRequest(LICENSE_BUCKET_MESSAGES.expired);
  const licenseIds = opened.licenses.map((licenseKey) => {
    let inside;
    try {
      inside = license.verify(licenseKey, now);
    } catch {
      throw badRequest(LICENSE_BUCKET_MESSAGES.invalid);
    }
    if (inside.edition !== opened.edition || inside.licensee !== opened.licensee) {
      throw badRequest(LICENSE_BUCKET_MESSAGES.invalid);
    }
    return inside.id;
  });
  if (new Set(licenseIds).size !== licenseIds.length) throw badRequest(LICENSE_BUCKET_MESSAGES.invalid);
  return { document: opened, key, licenseIds };
}

/** Signs a bucket document with an issuer key (a new bucket, or the part a split takes). */
export function signBucket(document: LicenseBucketDocument, key: IssuerKey): string {
  return signDocument(PREFIX, document, key);
}

/**
 * A new bucket of `count` licences of one edition for a customer, each licence signed on its own,
 * the whole signed by this deployment's issuer key: what `arca license bucket issue` prints.
 */
export function issueBucket(
  license: LicenseIssuer,
  options: { edition: Exclude<LicenseEdition, 'NONE'>; licensee: string; count: number; days: number; now?: number },
): string {
  const now = options.now ?? Date.now();
  const document: LicenseBucketDocument = {
    version: 1,
    id: randomUUID(),
    edition: options.edition,
    licensee: options.licensee,
    issuedAt: new Date(now).toISOString(),
    expiresAt: new Date(now + options.days * 86_400_000).toISOString(),
    issuer: license.ownKey.id,
    parent: null,
    licenses: Array.from({ length: options.count }, () =>
      license.issue({ edition: options.edition, licensee: options.licensee, days: options.days, now }),
    ),
  };
  return bucketFile(document, signBucket(document, license.ownKey));
}
