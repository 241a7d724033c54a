import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import * as openpgp from 'openpgp';
import {
  TRUSTED_KEY_MESSAGES,
  formatMessage,
  type ArtifactSignature,
  type TrustedKey,
  type TrustedKeyBody,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { TrustedKeysTable } from '../../db/schema.js';
import { audit, auditActor } from '../../core/audit.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { algorithmLabel } from '../signing/index.js';

const iso = (at: number | null) => (at === null ? null : new Date(Number(at)).toISOString());

function answerOf(row: TrustedKeysTable): TrustedKey {
  return {
    kid: row.kid,
    alias: row.alias,
    fingerprint: row.fingerprint,
    algorithm: row.algorithm,
    userIds: JSON.parse(row.user_ids) as string[],
    publicKey: row.public_key,
    issuedOn: iso(row.issued_on)!,
    validUntil: iso(row.valid_until),
    created: iso(row.created_at)!,
    createdBy: row.created_by,
  };
}

export async function listTrustedKeys(db: Db): Promise<TrustedKey[]> {
  return (await db.selectFrom('trusted_keys').selectAll().orderBy('alias').execute()).map(answerOf);
}

export async function getTrustedKey(db: Db, kid: string): Promise<TrustedKey> {
  const row = await db.selectFrom('trusted_keys').selectAll().where('kid', '=', kid.toLowerCase()).executeTakeFirst();
  if (!row) throw notFound(formatMessage(TRUSTED_KEY_MESSAGES.notFound, { kid }));
  return answerOf(row);
}

/** Reads an armored public key: one key, not a private one. */
async function readPublic(text: string): Promise<openpgp.PublicKey> {
  if (/-----BEGIN PGP PRIVATE KEY BLOCK-----/.test(text))
    throw badRequest(TRUSTED_KEY_MESSAGES.privateGiven, 'publicKey');
  try {
    return await openpgp.readKey({ armoredKey: text });
  } catch {
    throw badRequest(TRUSTED_KEY_MESSAGES.notPublicKey, 'publicKey');
  }
}

/** Trusts a public key under an alias; a key is trusted once. */
export async function addTrustedKey(request: FastifyRequest, body: TrustedKeyBody): Promise<TrustedKey> {
  const db = request.server.db;
  const key = await readPublic(body.publicKey);
  const fingerprint = key.getFingerprint().toUpperCase();
  const sameAlias = await db
    .selectFrom('trusted_keys')
    .select('alias')
    .where('alias', '=', body.alias)
    .executeTakeFirst();
  if (sameAlias) throw conflict(formatMessage(TRUSTED_KEY_MESSAGES.aliasTaken, { alias: body.alias }), 'alias');
  const sameKey = await db
    .selectFrom('trusted_keys')
    .select('alias')
    .where('fingerprint', '=', fingerprint)
    .executeTakeFirst();
  if (sameKey) throw conflict(formatMessage(TRUSTED_KEY_MESSAGES.keyTaken, { alias: sameKey.alias }), 'publicKey');
  const expires = await key.getExpirationTime().catch(() => null);
  const row: TrustedKeysTable = {
    kid: fingerprint.slice(-16).toLowerCase(),
    alias: body.alias,
    fingerprint,
    algorithm: algorithmLabel(key),
    user_ids: JSON.stringify(key.getUserIDs()),
    public_key: key.armor(),
    issued_on: key.getCreationTime().getTime(),
    valid_until: expires instanceof Date ? expires.getTime() : null,
    created_at: Date.now(),
    created_by: auditActor(request).actor,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('trusted_keys').values(row).execute();
    await audit(
      request,
      {
        category: 'security',
        action: 'create',
        target: `trusted key ${row.alias}`,
        after: { kid: row.kid, fingerprint },
      },
      trx,
    );
  });
  return answerOf(row);
}

export async function removeTrustedKey(request: FastifyRequest, kid: string): Promise<void> {
  const db = request.server.db;
  const before = await getTrustedKey(db, kid);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('trusted_keys').where('kid', '=', before.kid).execute();
    await audit(
      request,
      { category: 'security', action: 'delete', target: `trusted key ${before.alias}`, before: { kid: before.kid } },
      trx,
    );
  });
}

/**
 * Checks a detached signature (armored or binary) over a file's bytes, streamed, against the
 * trusted keys: verified by one of them, made by a key that is not trusted, or not matching.
 */
export async function checkSignature(
  db: Db,
  signaturePath: string,
  signatureBytes: Buffer,
  data: Readable,
): Promise<ArtifactSignature> {
  const base = { signaturePath, keyId: '', alias: '', userIds: [] as string[], signedAt: null as string | null };
  let signature: openpgp.Signature;
  try {
    const text = signatureBytes.toString('utf8');
    signature = text.includes('-----BEGIN PGP SIGNATURE-----')
      ? await openpgp.readSignature({ armoredSignature: text })
      : await openpgp.readSignature({ binarySignature: new Uint8Array(signatureBytes) });
  } catch {
    data.destroy();
    return { ...base, state: 'unreadable', message: 'The signature file holds no OpenPGP signature.' };
  }
  const packet = signature.packets[0];
  const keyId = packet?.issuerKeyID.toHex().toUpperCase() ?? '';
  const signedAt = packet?.created ? packet.created.toISOString() : null;
  const trusted = (await db.selectFrom('trusted_keys').selectAll().execute()).map(answerOf);
  const keys = await Promise.all(trusted.map((t) => openpgp.readKey({ armoredKey: t.publicKey })));
  const signer = keys.findIndex((k) => k.getKeys(packet?.issuerKeyID).length > 0);
  if (signer < 0) {
    data.destroy();
    return {
      ...base,
      keyId,
      signedAt,
      state: 'untrusted',
      message: `Signed by the key ${keyId}, which is not among the trusted keys.`,
    };
  }
  const result = await openpgp.verify({
    message: await openpgp.createMessage({ binary: Readable.toWeb(data) as ReadableStream<Uint8Array> }),
    signature,
    verificationKeys: keys[signer]!,
    format: 'binary',
  });
  // the data is read to its end before the signature's verdict is known
  const reader = (result.data as ReadableStream<Uint8Array>).getReader();
  while (!(await reader.read()).done);
  const key = trusted[signer]!;
  const found = { ...base, keyId, signedAt, alias: key.alias, userIds: key.userIds };
  try {
    await result.signatures[0]!.verified;
    return {
      ...found,
      state: 'verified',
      message: `Verified: signed by ${key.alias} (${key.userIds.join(', ') || keyId}).`,
    };
  } catch (error) {
    return {
      ...found,
      state: 'invalid',
      message: `The signature does not match the file: ${(error as Error).message}`,
    };
  }
}
