import { seal, unseal } from '../../core/sealing.js';
import type { Db } from '../../db/database.js';

/**
 * Encrypted passwords (`GET /api/security/encryptedPassword`), for files that must hold a
 * credential (Maven's settings.xml, pip's index URL, .npmrc): the user's password sealed with the
 * deployment's key (bound to the user's id), accepted wherever the password is. The server checks
 * the password inside as it checks any, so a changed password ends every encrypted form of the old
 * one. The form is Artifactory's: `AP` and Base58 letters and digits only — no braces (Maven takes
 * `{…}` for its own encryption and fails to decrypt it), nothing a URL or a shell must escape.
 */
export const ENCRYPTED_PASSWORD_PREFIX = 'APA';
/** The form of earlier versions, still accepted where it was written. */
const EARLIER_PREFIX = '{ARCA}';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let text = '';
  while (value > 0n) {
    text = ALPHABET[Number(value % 58n)]! + text;
    value /= 58n;
  }
  // each leading zero byte is a leading '1'
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

function unbase58(text: string): Buffer | undefined {
  let value = 0n;
  for (const char of text) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) return undefined;
    value = value * 58n + BigInt(digit);
  }
  const hex = value === 0n ? '' : value.toString(16);
  const body = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = /^1*/.exec(text)![0].length;
  return Buffer.concat([Buffer.alloc(zeros), body]);
}

export async function encryptPassword(db: Db, userId: string, password: string): Promise<string> {
  const sealed = Buffer.from(await seal(db, userId, password), 'base64url');
  return ENCRYPTED_PASSWORD_PREFIX + base58(sealed);
}

/** Whether a secret has the form of an encrypted password (it may still be someone's plain password). */
export function looksEncrypted(secret: string): boolean {
  return (
    secret.startsWith(EARLIER_PREFIX) ||
    (secret.startsWith(ENCRYPTED_PASSWORD_PREFIX) && /^APA[1-9A-HJ-NP-Za-km-z]{40,}$/.test(secret))
  );
}

/** The password inside an encrypted form for this user; undefined when it is not one of this deployment's for him. */
export async function decryptPassword(db: Db, userId: string, encrypted: string): Promise<string | undefined> {
  if (encrypted.startsWith(EARLIER_PREFIX)) return unseal(db, userId, encrypted.slice(EARLIER_PREFIX.length));
  if (!looksEncrypted(encrypted)) return undefined;
  const raw = unbase58(encrypted.slice(ENCRYPTED_PASSWORD_PREFIX.length));
  return raw && unseal(db, userId, raw.toString('base64url'));
}
