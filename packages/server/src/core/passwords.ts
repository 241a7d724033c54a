import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt's cost (N) for new hashes unless ARCA_PASSWORD_HASH_COST says otherwise. */
export const DEFAULT_PASSWORD_HASH_COST = 16384;
const PARAMS = { r: 8, p: 1, keyLength: 64 } as const;
let cost = DEFAULT_PASSWORD_HASH_COST;

/**
 * Sets scrypt's cost (a power of two) for the hashes made from now on; a stored hash keeps the
 * cost it was made with, so a change needs no migration.
 */
export function setPasswordHashCost(n: number): void {
  if (!Number.isInteger(Math.log2(n)) || n < 1024)
    throw new Error(`a scrypt cost must be a power of two of at least 1024, got ${n}`);
  cost = n;
}

function derive(password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  const options: ScryptOptions = { N, r, p, maxmem: 128 * N * r * 2 };
  return new Promise((resolve, reject) =>
    scrypt(password, salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** Hashes a password with scrypt and a per-user salt: `scrypt$N$r$p$salt$hash` (base64). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost, PARAMS.r, PARAMS.p, PARAMS.keyLength);
  return ['scrypt', cost, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Compares in constant time; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = stored?.split('$');
  if (!parts || parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltText, hashText] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hashText, 'base64');
  const actual = await derive(
    password,
    Buffer.from(saltText, 'base64'),
    Number(n),
    Number(r),
    Number(p),
    expected.length,
  );
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A password for generated accounts: 24 URL-safe characters. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
