import { createHash, createPublicKey, randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import ssh2, { type ParsedKey } from 'ssh2';
import { SSH_MESSAGES, formatMessage, type SshKey, type SshKeyBody } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { SshKeysTable, UserRow } from '../../db/schema.js';
import { audit } from '../../core/audit.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';

// ssh2 is CommonJS whose exports Node cannot name statically
const { utils } = ssh2;

/** The key types users may register; DSA is refused, as OpenSSH does. */
const ACCEPTED_TYPES = /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)|sk-ssh-ed25519@openssh\.com)$/;
const MIN_RSA_BITS = 2048;

/** `SHA256:…` of a key's wire form, as `ssh-keygen -lf` prints it. */
export const sshFingerprint = (blob: Buffer) =>
  `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;

/** One parsed public key: the library answers an Error or a list for what it cannot read as one. */
function onePublicKey(text: string): ParsedKey | undefined {
  const parsed = utils.parseKey(text);
  if (parsed instanceof Error) return undefined;
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  return key && !key.isPrivateKey() ? key : undefined;
}

/** The registered form of an OpenSSH public key line: its type, wire form and fingerprint. */
export function readPublicKey(line: string): { algorithm: string; publicKey: string; fingerprint: string } {
  const text = line.trim().split(/\r?\n/)[0]!;
  const key = onePublicKey(text);
  if (!key || !ACCEPTED_TYPES.test(key.type)) throw badRequest(SSH_MESSAGES.publicKeyInvalid, 'publicKey');
  if (key.type === 'ssh-rsa') {
    const bits = createPublicKey(key.getPublicPEM()).asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < MIN_RSA_BITS)
      throw badRequest(`An RSA key has ${MIN_RSA_BITS} bits at least; this one has ${bits}.`, 'publicKey');
  }
  const blob = key.getPublicSSH();
  return {
    algorithm: key.type,
    publicKey: `${key.type} ${blob.toString('base64')}`,
    fingerprint: sshFingerprint(blob),
  };
}

type Row = SshKeysTable & { user_name: string };

function answerOf(row: Row): SshKey {
  return {
    id: row.id,
    user: row.user_name,
    title: row.title,
    algorithm: row.algorithm,
    fingerprint: row.fingerprint,
    created: new Date(Number(row.created_at)).toISOString(),
    lastUsed: row.last_used_at === null ? null : new Date(Number(row.last_used_at)).toISOString(),
  };
}

const withOwners = (db: Db) =>
  db
    .selectFrom('ssh_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .selectAll('k')
    .select('u.name as user_name');

/** Every user's keys (administrators), or one user's. */
export async function listSshKeys(db: Db, userId?: string): Promise<SshKey[]> {
  let query = withOwners(db).orderBy('u.name').orderBy('k.created_at');
  if (userId) query = query.where('k.user_id', '=', userId);
  return (await query.execute()).map(answerOf);
}

export async function countSshKeys(db: Db): Promise<number> {
  const row = await db
    .selectFrom('ssh_keys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Registers a key for a user; one key signs in one user only. */
export async function addSshKey(request: FastifyRequest, user: UserRow, body: SshKeyBody): Promise<SshKey> {
  const db = request.server.db;
  const read = readPublicKey(body.publicKey);
  const holder = await withOwners(db).where('k.fingerprint', '=', read.fingerprint).executeTakeFirst();
  if (holder) {
    // the owner's name is told only to the owner and administrators
    const mayKnow =
      holder.user_id === user.id || (request.principal.kind === 'user' && request.principal.user.admin === 1);
    throw conflict(
      formatMessage(SSH_MESSAGES.keyTaken, { user: mayKnow ? holder.user_name : 'another user' }),
      'publicKey',
    );
  }
  const row: SshKeysTable = {
    id: randomUUID(),
    user_id: user.id,
    title: body.title.trim(),
    algorithm: read.algorithm,
    fingerprint: read.fingerprint,
    public_key: read.publicKey,
    created_at: Date.now(),
    last_used_at: null,
  };
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('ssh_keys').values(row).execute();
    await audit(
      request,
      {
        category: 'user',
        action: 'add ssh key',
        target: user.name,
        after: { title: row.title, fingerprint: row.fingerprint },
      },
      trx,
    );
  });
  return answerOf({ ...row, user_name: user.name });
}

/** Removes a key: the owner's own, or any (administrators, `ownerId` undefined). */
export async function removeSshKey(request: FastifyRequest, id: string, ownerId?: string): Promise<void> {
  const db = request.server.db;
  let query = withOwners(db).where('k.id', '=', id);
  if (ownerId) query = query.where('k.user_id', '=', ownerId);
  const found = await query.executeTakeFirst();
  if (!found) throw notFound(formatMessage(SSH_MESSAGES.notFound, { id }));
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('ssh_keys').where('id', '=', id).execute();
    await audit(
      request,
      {
        category: 'user',
        action: 'remove ssh key',
        target: found.user_name,
        before: { title: found.title, fingerprint: found.fingerprint },
      },
      trx,
    );
  });
}

/** The key registered under a fingerprint, with its user. */
export async function keyByFingerprint(db: Db, fingerprint: string) {
  return db
    .selectFrom('ssh_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .select(['k.id as key_id', 'k.public_key', 'k.title'])
    .selectAll('u')
    .where('k.fingerprint', '=', fingerprint)
    .executeTakeFirst();
}

export async function touchSshKey(db: Db, id: string, at = Date.now()): Promise<void> {
  await db.updateTable('ssh_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** The parsed key of a stored line (for signature checks). */
export function parsedPublicKey(line: string): ParsedKey | undefined {
  return onePublicKey(line);
}
