import { createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { licenseBucketDocumentSchema, licenseDocumentSchema } from '@arca/contracts';
import { issuerKeyId, openDocument, signDocument, type IssuerKey } from './signed-documents.js';

function issuer(): IssuerKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  const publicKey = createPublicKey(privateKey);
  return { id: issuerKeyId(publicKey), publicKey, privateKey };
}

const key = issuer();
const licence = {
  version: 1 as const,
  id: 'lic-1',
  edition: 'ENTERPRISE_PLUS' as const,
  licensee: 'Acme',
  issuedAt: '2026-11-01T00:00:00.000Z',
  expiresAt: null,
  issuer: key.id,
};
const bucket = {
  ...licence,
  id: 'bucket-1',
  expiresAt: '2027-11-01T00:00:00.000Z',
  parent: null,
  licenses: ['ARCA-LICENSE-1.a.b', 'ARCA-LICENSE-1.c.d'],
};
const openLicence = (text: string) =>
  openDocument(
    'ARCA-LICENSE-1',
    text,
    (v) => licenseDocumentSchema.parse(v),
    [key],
    (v) => licenseDocumentSchema.strict().parse(v),
  );
/** A document signed the way it was before the prefix was signed: over the payload alone. */
const legacy = (prefix: string, document: unknown) => {
  const payload = Buffer.from(JSON.stringify(document)).toString('base64url');
  return `${prefix}.${payload}.${sign(null, Buffer.from(payload), key.privateKey!).toString('base64url')}`;
};
const renamed = (text: string, prefix: string) => [prefix, ...text.split('.').slice(1)].join('.');

describe('signed documents', () => {
  it('signs the kind of a document with it: a bucket renamed to a licence is refused', () => {
    expect(openLicence(signDocument('ARCA-LICENSE-1', licence, key))).toMatchObject({ id: 'lic-1' });
    const signedBucket = signDocument('ARCA-BUCKET-1', bucket, key);
    expect(
      openDocument('ARCA-BUCKET-1', signedBucket, (v) => licenseBucketDocumentSchema.parse(v), [key]),
    ).toMatchObject({ id: 'bucket-1' });
    expect(openLicence(renamed(signedBucket, 'ARCA-LICENSE-1'))).toBe('untrusted');
  });

  it('still reads a licence signed before, but never a bucket of then renamed to one', () => {
    expect(openLicence(legacy('ARCA-LICENSE-1', licence))).toMatchObject({ id: 'lic-1' });
    expect(openLicence(renamed(legacy('ARCA-BUCKET-1', bucket), 'ARCA-LICENSE-1'))).toBe('untrusted');
    // without a reading for them, documents of then are not taken at all
    expect(
      openDocument('ARCA-LICENSE-1', legacy('ARCA-LICENSE-1', licence), (v) => licenseDocumentSchema.parse(v), [key]),
    ).toBe('untrusted');
  });
});
