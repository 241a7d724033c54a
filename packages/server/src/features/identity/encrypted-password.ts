import { seal, unseal } from '../../core/sealing.js';
import type { Db } from '../../db/database.js';

/**
 * Encrypted passwords (`GET /api/security/encryptedPassword`), for files that must hold a
 * credential (Maven's settings.xml): the user's password sealed with the deployment's key
 * (bound to the user's id), accepted wherever the password is. The server checks the password
 * inside as it checks any, so a changed password ends every encrypted form of the old one.
 */
export const ENCRYPTED_PASSWORD_PREFIX = '{ARCA}';

export async function encryptPassword(db: Db, userId: string, password: string): Promise<string> {
  return ENCRYPTED_PASSWORD_PREFIX + (await seal(db, userId, password));
}

/** The password inside an encrypted form for this user; undefined when it is not one of this deployment's for him. */
export async function decryptPassword(db: Db, userId: string, encrypted: string): Promise<string | undefined> {
  if (!encrypted.startsWith(ENCRYPTED_PASSWORD_PREFIX)) return undefined;
  return unseal(db, userId, encrypted.slice(ENCRYPTED_PASSWORD_PREFIX.length));
}
