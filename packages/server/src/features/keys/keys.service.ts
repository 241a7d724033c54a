import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import forge from 'node-forge';
import * as openpgp from 'openpgp';
import { KEY_MESSAGES, formatMessage, type KeyPair, type KeyPairBody } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { KeyPairsTable } from '../../db/schema.js';
import { audit, auditActor } from '../../core/audit.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { seal, unseal } from '../../core/sealing.js';
import { algorithmLabel } from '../signing/index.js';

const sealContext = (name: string) => `key-pair:${name}`;

function answerOf(row: KeyPairsTable): KeyPair {
  return {
    pairName: row.name,
    pairType: row.type,
    alias: row.alias,
    fingerprint: row.fingerprint,
    algorithm: row.algorithm,
    publicKey: row.public_key,
    source: row.source,
    created: new Date(Number(row.created_at)).toISOString(),
    createdBy: row.created_by,
  };
}

async function row(db: Db, name: string): Promise<KeyPairsTable> {
  const found = await db.selectFrom('key_pairs').selectAll().where('name', '=', name).executeTakeFirst();
  if (!found) throw notFound(formatMessage(KEY_MESSAGES.notFound, { name }));
  return found;
}

export async function listKeyPairs(db: Db): Promise<KeyPair[]> {
  return (await db.selectFrom('key_pairs').selectAll().orderBy('name').execute()).map(answerOf);
}

export async function getKeyPair(db: Db, name: string): Promise<KeyPair> {
  return answerOf(await row(db, name));
}

interface Made {
  fingerprint: string;
  algorithm: string;
  publicKey: string;
  privateKey: string;
}

/** A GPG key pair: made (Ed25519) for the alias, or the armored one given, opened with its passphrase. */
async function gpgPair(body: KeyPairBody): Promise<Made> {
  let key: openpgp.PrivateKey;
  if (!body.privateKey?.trim()) {
    const made = await openpgp.generateKey({
      type: 'ecc',
      curve: 'ed25519Legacy',
      userIDs: [{ name: body.alias?.trim() || body.pairName }],
      format: 'object',
    });
    key = made.privateKey;
  } else {
    try {
      key = await openpgp.readPrivateKey({ armoredKey: body.privateKey });
    } catch {
      throw badRequest(KEY_MESSAGES.notPrivateKey, 'privateKey');
    }
    if (!key.isDecrypted()) {
      try {
        key = await openpgp.decryptKey({ privateKey: key, passphrase: body.passphrase ?? '' });
      } catch {
        throw badRequest(KEY_MESSAGES.wrongPassphrase, 'passphrase');
      }
    }
    if (body.publicKey?.trim()) {
      const given = await openpgp.readKey({ armoredKey: body.publicKey }).catch(() => undefined);
      if (given?.getFingerprint() !== key.getFingerprint()) throw badRequest(KEY_MESSAGES.publicMismatch, 'publicKey');
    }
  }
  return {
    fingerprint: key.getFingerprint().toUpperCase(),
    algorithm: algorithmLabel(key),
    publicKey: key.toPublic().armor(),
    privateKey: key.armor(),
  };
}

const rsaFingerprint = (key: KeyObject) =>
  createHash('sha256')
    .update(key.export({ type: 'spki', format: 'der' }))
    .digest('hex')
    .toUpperCase();

/** A PEM private key encrypted with a passphrase: PKCS#8's own label, or OpenSSL's legacy header. */
const ENCRYPTED_PEM = /-----BEGIN ENCRYPTED PRIVATE KEY-----|^Proc-Type: 4,ENCRYPTED$/m;

/** An RSA key pair: made (3072 bits), or the PEM one given, opened with its passphrase. */
function rsaPair(body: KeyPairBody): Made {
  let key: KeyObject;
  if (!body.privateKey?.trim()) {
    key = generateKeyPairSync('rsa', { modulusLength: 3072 }).privateKey;
  } else {
    try {
      key = createPrivateKey({ key: body.privateKey, format: 'pem', passphrase: body.passphrase ?? '' });
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      // a wrong passphrase does not always fail the decryption itself: CBC padding that happens to
      // look right (about once in 256) leaves bytes that fail as a key instead; an encrypted key
      // that does not open is a passphrase that does not fit either way
      if (
        ENCRYPTED_PEM.test(body.privateKey) ||
        /PASSPHRASE|BAD_DECRYPT/.test(code) ||
        /passphrase/i.test((error as Error).message)
      ) {
        throw badRequest(KEY_MESSAGES.wrongPassphrase, 'passphrase');
      }
      throw badRequest(KEY_MESSAGES.notRsaKey, 'privateKey');
    }
    if (key.asymmetricKeyType !== 'rsa') throw badRequest(KEY_MESSAGES.notRsaKey, 'privateKey');
  }
  const publicKey = createPublicKey(key);
  if (body.publicKey?.trim()) {
    let given: KeyObject | undefined;
    try {
      given = createPublicKey(body.publicKey);
    } catch {
      given = undefined;
    }
    if (!given || rsaFingerprint(given) !== rsaFingerprint(publicKey)) {
      throw badRequest(KEY_MESSAGES.publicMismatch, 'publicKey');
    }
  }
  return {
    fingerprint: rsaFingerprint(publicKey),
    algorithm: `RSA ${key.asymmetricKeyDetails?.modulusLength ?? ''}`.trim(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKey: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** Generates or imports a key pair under a new name; its private key is kept sealed. */
export async function createKeyPair(request: FastifyRequest, body: KeyPairBody): Promise<KeyPair> {
  const db = request.server.db;
  if (body.publicKey?.trim() && !body.privateKey?.trim()) {
    throw badRequest(KEY_MESSAGES.publicWithoutPrivate, 'publicKey');
  }
  if (await db.selectFrom('key_pairs').select('name').where('name', '=', body.pairName).executeTakeFirst()) {
    throw conflict(formatMessage(KEY_MESSAGES.nameTaken, { name: body.pairName }), 'pairName');
  }
  const made = body.pairType === 'GPG' ? await gpgPair(body) : rsaPair(body);
  const stored: KeyPairsTable = {
    name: body.pairName,
    type: body.pairType,
    alias: body.alias?.trim() ?? '',
    fingerprint: made.fingerprint,
    algorithm: made.algorithm,
    public_key: made.publicKey,
    private_key: await seal(db, sealContext(body.pairName), made.privateKey),
    source: body.privateKey?.trim() ? 'imported' : 'generated',
    created_at: Date.now(),
    created_by: auditActor(request).actor,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('key_pairs').values(stored).execute();
    await audit(
      request,
      {
        category: 'security',
        action: stored.source === 'generated' ? 'generate' : 'import',
        target: `key pair ${stored.name}`,
        after: { type: stored.type, fingerprint: stored.fingerprint },
      },
      trx,
    );
  });
  return answerOf(stored);
}

export async function deleteKeyPair(request: FastifyRequest, name: string): Promise<void> {
  const db = request.server.db;
  const before = await row(db, name);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('key_pairs').where('name', '=', name).execute();
    await audit(
      request,
      {
        category: 'security',
        action: 'delete',
        target: `key pair ${name}`,
        before: { fingerprint: before.fingerprint },
      },
      trx,
    );
  });
}

/** The armored or PEM private key of a pair (server side only). */
export async function privateKeyOf(db: Db, name: string): Promise<{ pair: KeyPairsTable; privateKey: string }> {
  const pair = await row(db, name);
  const privateKey = await unseal(db, sealContext(name), pair.private_key);
  if (!privateKey) throw new Error(`the private key of '${name}' cannot be unsealed`);
  return { pair, privateKey };
}

/**
 * A self-signed X.509 certificate of an RSA key pair, for the peers that take keys only in a
 * certificate (a SAML identity provider reads the signing key from Arca's metadata). It is the
 * same every time: serial from the key's fingerprint, valid ten years from the pair's creation.
 */
export async function certificateOf(db: Db, name: string): Promise<{ certificate: string; privateKey: string }> {
  const { pair, privateKey } = await privateKeyOf(db, name);
  if (pair.type !== 'RSA') throw badRequest(formatMessage(KEY_MESSAGES.notFound, { name }));
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  // a positive serial of 16 bytes, from the fingerprint
  certificate.serialNumber = `01${createHash('sha256').update(pair.fingerprint).digest('hex').slice(0, 30)}`;
  const created = new Date(Number(pair.created_at));
  certificate.validity.notBefore = created;
  certificate.validity.notAfter = new Date(created.getTime() + 10 * 365 * 86_400_000);
  const subject = [{ name: 'commonName', value: pair.alias || pair.name }];
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.sign(key, forge.md.sha256.create());
  return { certificate: forge.pki.certificateToPem(certificate), privateKey };
}

/** A detached signature made with a key pair: ASCII-armored OpenPGP (GPG) or base64 RSA-SHA256 (RSA). */
export interface KeyPairSignature {
  keyName: string;
  type: string;
  fingerprint: string;
  publicKey: string;
  signature: string;
}

/** Signs `data` with the named key pair's private key. */
export async function signWithKeyPair(db: Db, name: string, data: Buffer): Promise<KeyPairSignature> {
  const { pair, privateKey } = await privateKeyOf(db, name);
  const made = { keyName: pair.name, type: pair.type, fingerprint: pair.fingerprint, publicKey: pair.public_key };
  if (pair.type === 'RSA') return { ...made, signature: sign('sha256', data, privateKey).toString('base64') };
  const signature = await openpgp.sign({
    message: await openpgp.createMessage({ binary: new Uint8Array(data) }),
    signingKeys: await openpgp.readPrivateKey({ armoredKey: privateKey }),
    detached: true,
  });
  return { ...made, signature: signature as string };
}

/** Whether `signature` (as `signWithKeyPair` makes it) was made over `data` by the key whose public part is given. */
export async function signatureHolds(
  type: string,
  publicKey: string,
  data: Buffer,
  signature: string,
): Promise<boolean> {
  try {
    if (type === 'RSA') return verify('sha256', data, publicKey, Buffer.from(signature, 'base64'));
    const result = await openpgp.verify({
      message: await openpgp.createMessage({ binary: new Uint8Array(data) }),
      signature: await openpgp.readSignature({ armoredSignature: signature }),
      verificationKeys: await openpgp.readKey({ armoredKey: publicKey }),
    });
    await result.signatures[0]!.verified;
    return true;
  } catch {
    return false;
  }
}

/** Signs a sample with the private key and checks the signature with the public key. */
export async function verifyKeyPair(db: Db, name: string): Promise<boolean> {
  const sample = Buffer.from(`arca key pair check ${name} ${Date.now()}`);
  const made = await signWithKeyPair(db, name, sample);
  return signatureHolds(made.type, made.publicKey, sample, made.signature);
}
