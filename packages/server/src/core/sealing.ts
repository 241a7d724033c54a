import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';
import { getSetting, putSettingOnce } from './settings.store.js';

/**
 * Secrets the deployment must be able to read back (encrypted passwords, API keys), sealed with
 * its own key (AES-256-GCM, 32 random bytes made once in the settings, shared by every node).
 * `context` is bound into each seal (a user's id, say), so that a sealed value moved to another
 * row or purpose does not open.
 */
async function deploymentKey(db: Db): Promise<Buffer> {
  let key = await getSetting(db, 'security.passwordKey');
  if (!key) {
    // made once: a second node racing here writes nothing, and both then read the one that stayed
    key = await putSettingOnce(db, 'security.passwordKey', randomBytes(32).toString('base64'));
  }
  return Buffer.from(key, 'base64');
}

/** `text` sealed for `context`, as base64url (12-byte IV, 16-byte tag, cipher text). */
export async function seal(db: Db, context: string, text: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await deploymentKey(db), iv);
  cipher.setAAD(Buffer.from(context));
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The text inside a seal made for `context` by this deployment; undefined for anything else. */
export async function unseal(db: Db, context: string, sealed: string): Promise<string | undefined> {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length < 29) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', await deploymentKey(db), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** Answers the clear texts of the secrets a feature holds (sealed or not). */
export type SecretSource = (db: Db) => Promise<string[]>;

const secretSources = new Map<string, SecretSource>();

/**
 * Declares where a feature keeps secrets, so that whatever writes data out of the deployment (a
 * support bundle) can make sure none of them leaves in clear. One source per feature, by name.
 */
export function registerSecretSource(name: string, source: SecretSource): void {
  secretSources.set(name, source);
}

/** Every secret the features declare, at least six characters long (shorter ones would mask ordinary words). */
export async function knownSecrets(db: Db): Promise<string[]> {
  const all = await Promise.all([...secretSources.values()].map((source) => source(db).catch(() => [])));
  return [...new Set(all.flat().filter((s) => typeof s === 'string' && s.length >= 6))];
}
