import { POST_LOGIN_PATH_TTL_MS } from '@arca/contracts';

const STORAGE_KEY = 'arca.loginRedirect';

/** The login redirect record of spec part 1 §3. */
export interface LoginRedirectRecord {
  pathAfterLogin: string;
  expiration: number;
}

export function rememberPathAfterLogin(path: string, now = Date.now(), storage: Storage = localStorage): void {
  const record: LoginRedirectRecord = { pathAfterLogin: path, expiration: now + POST_LOGIN_PATH_TTL_MS };
  storage.setItem(STORAGE_KEY, JSON.stringify(record));
}

/**
 * The remembered path, once: it is removed when read. An expired record, or a target under /admin/
 * for a user who is not an admin, is ignored.
 */
export function takePathAfterLogin(
  admin: boolean,
  now = Date.now(),
  storage: Storage = localStorage,
): string | undefined {
  const raw = storage.getItem(STORAGE_KEY);
  storage.removeItem(STORAGE_KEY);
  if (!raw) return undefined;
  try {
    const record = JSON.parse(raw) as LoginRedirectRecord;
    if (typeof record.pathAfterLogin !== 'string' || record.expiration <= now) return undefined;
    if (!admin && record.pathAfterLogin.includes('/admin/')) return undefined;
    if (!record.pathAfterLogin.startsWith('/') || record.pathAfterLogin.startsWith('//')) return undefined;
    return record.pathAfterLogin;
  } catch {
    return undefined;
  }
}
