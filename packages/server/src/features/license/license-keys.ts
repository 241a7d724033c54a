import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { LICENSE_MESSAGES, licenseDocumentSchema, type LicenseDocument } from '@arca/contracts';
import { badRequest } from '../../core/errors.js';
import { seal, unseal } from '../../core/sealing.js';
import { getSetting, putSettingOnce } from '../../core/settings.store.js';
import type { Db } from '../../db/database.js';
import { issuerKeyId, openDocument, signDocument, type IssuerKey } from '../../core/signed-documents.js';

export {
  exportIssuerPublicKey,
  issuerKeyId,
  openDocument,
  signDocument,
  type IssuerKey,
} from '../../core/signed-documents.js';

/** What the issuer key's seal is bound to. */
const ISSUER_KEY_CONTEXT = 'license.issuerKey';

/** Licence keys read `ARCA-LICENSE-1.<base64url(document JSON)>.<base64url(Ed25519 signature)>`. */
const PREFIX = 'ARCA-LICENSE-1';

/**
 * This deployment's issuer key, kept sealed in the database so that every node signs with the same
 * one: made on the first start, or taken over from `<dataDir>/keys`, where earlier versions kept it.
 */
export async function loadOrCreateIssuerKey(db: Db, dataDir: string): Promise<IssuerKey> {
  let sealed = await getSetting(db, 'license.issuerKey');
  if (!sealed) {
    const earlier = path.join(dataDir, 'keys', 'license-issuer.key');
    const pem = fs.existsSync(earlier)
      ? fs.readFileSync(earlier, 'utf8')
      : String(generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
    // a second node racing here writes nothing: both then read the one that stayed
    sealed = await putSettingOnce(db, 'license.issuerKey', await seal(db, ISSUER_KEY_CONTEXT, pem));
  }
  const pem = await unseal(db, ISSUER_KEY_CONTEXT, sealed);
  if (!pem) throw new Error("The licence issuer key in the database does not open with this deployment's key.");
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  return { id: issuerKeyId(publicKey), publicKey, privateKey };
}

/** Parses a trusted issuer public key given as PEM or as base64 SPKI DER. */
export function parseIssuerPublicKey(text: string): IssuerKey {
  const trimmed = text.trim();
  const publicKey = trimmed.startsWith('-----')
    ? createPublicKey(trimmed)
    : createPublicKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'spki' });
  if (publicKey.asymmetricKeyType !== 'ed25519') throw new Error('A licence issuer key must be an Ed25519 public key');
  return { id: issuerKeyId(publicKey), publicKey };
}

export function signLicense(document: LicenseDocument, key: IssuerKey): string {
  return signDocument(PREFIX, document, key);
}

/** Accepts the bare key, or a .json file's text holding it as `licenseKey` (or `key`). */
export function extractLicenseKey(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return trimmed.replace(/\s+/g, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    throw badRequest(LICENSE_MESSAGES.malformed);
  }
  const record = (parsed ?? {}) as Record<string, unknown>;
  const key = record.licenseKey ?? record.key;
  if (typeof key !== 'string') throw badRequest(LICENSE_MESSAGES.malformed);
  return key.trim().replace(/\s+/g, '');
}

/**
 * Verifies a licence key against the trusted issuers and returns its document. Throws a 400 with
 * the spec-facing message for malformed text, an untrusted or wrong signature, or an expired key.
 */
export function verifyLicenseKey(text: string, trusted: IssuerKey[], now = Date.now()): LicenseDocument {
  const opened = openDocument(
    PREFIX,
    extractLicenseKey(text),
    (v) => licenseDocumentSchema.parse(v),
    trusted,
    // licences issued before the prefix was signed: a licence's fields and nothing else
    (v) => licenseDocumentSchema.strict().parse(v),
  );
  if (opened === 'malformed') throw badRequest(LICENSE_MESSAGES.malformed);
  if (opened === 'untrusted') throw badRequest(LICENSE_MESSAGES.badSignature);
  const document = opened;
  if (document.expiresAt !== null && Date.parse(document.expiresAt) <= now) throw badRequest(LICENSE_MESSAGES.expired);
  return document;
}
