import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { bumpConfigGeneration } from '../../core/config-cache.js';
import { getSetting } from '../../core/settings.store.js';
import type { Db } from '../../db/database.js';

/**
 * Encrypted passwords (`GET /api/security/encryptedPassword`), for files that must hold a
 * credential (Maven's settings.xml): the user's password sealed with the deployment's key
 * (AES-256-GCM, bound to the user's id), accepted wherever the password is. The server checks the
 * password inside as it checks any, so a changed password ends every encrypted form of the old one.
 */
export const ENCRYPTED_PASSWORD_PREFIX = '{ARCA}';

async function passwordKey(db: Db): Promise<Buffer> {
  let key = await getSetting(db, 'security.passwordKey');
  if (!key) {
    await db
      .insertInto('settings')
      .values({
        key: 'security.passwordKey',
        value: JSON.stringify(randomBytes(32).toString('base64')),
        updated_at: Date.now(),
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    await bumpConfigGeneration(db);
    key = await getSetting(db, 'security.passwordKey');
  }
  return Buffer.from(key, 'base64');
}

export async function encryptPassword(db: Db, userId: string, password: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await passwordKey(db), iv);
  cipher.setAAD(Buffer.from(userId));
  const sealed = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
  return ENCRYPTED_PASSWORD_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The password inside an encrypted form for this user; undefined when it is not one of this deployment's for him. */
export async function decryptPassword(db: Db, userId: string, encrypted: string): Promise<string | undefined> {
  if (!encrypted.startsWith(ENCRYPTED_PASSWORD_PREFIX)) return undefined;
  const raw = Buffer.from(encrypted.slice(ENCRYPTED_PASSWORD_PREFIX.length), 'base64url');
  if (raw.length < 29) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', await passwordKey(db), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(userId));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
