import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  ANONYMOUS_USER,
  AUTH_ERROR_CODES,
  AUTH_MESSAGES,
  BUILT_IN_ADMIN,
  LDAP_REALM,
  DEFAULT_PROJECT,
  PASSWORD_FLOW_MESSAGES,
  type UserData,
} from '@arca/contracts';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';
import { HttpError, forbidden, unauthorized } from '../../core/errors.js';
import { generatePassword, hashPassword, verifyPassword } from '../../core/passwords.js';
import { getSetting } from '../../core/settings.store.js';
import { getSecuritySettings } from '../security/index.js';
import { DirectoryError, directorySignIn, type DirectoryOutcome } from '../directory/index.js';
import { isProjectAdmin, scanningPermissions, type Principal } from '../../core/principals.js';
import {
  clearLoginFailures,
  findUserById,
  findUserByName,
  findUsersByFoldedName,
  insertUser,
  recordLoginFailure,
  refuseWhileLocked,
  setLastLogin,
} from '../identity/index.js';
import { deleteSession, findSession, insertSession, touchSession } from './auth.store.js';

export const SESSION_COOKIE = 'arca_session';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Refresh `last_seen_at` at most this often, to keep reads cheap. */
const TOUCH_EVERY_MS = 30_000;

// Compared against when the user does not exist, so that both paths take the same time.
let dummyHash: Promise<string> | undefined;

/** The expiry time of a password that expires within the policy's warning period. */
async function passwordExpiryWarning(db: Db, user: UserRow, now = Date.now()): Promise<string | null> {
  const policy = await getSetting(db, 'security.policy');
  const days = policy.passwordExpiryDays ?? 0;
  if (days <= 0 || user.realm !== 'internal') return null;
  const expires = (user.password_changed_at ?? user.created_at) + days * 86_400_000;
  return expires - now <= (policy.passwordExpiryNotifyDays ?? 5) * 86_400_000 ? new Date(expires).toISOString() : null;
}

export async function buildUserData(db: Db, principal: Principal): Promise<UserData> {
  const anonAccessEnabled = await getSetting(db, 'security.anonymousAccess');
  const xrayPermissions = await scanningPermissions(db, principal);
  if (principal.kind === 'anonymous') {
    return {
      name: ANONYMOUS_USER,
      email: null,
      admin: false,
      anonAccessEnabled,
      disableUIAccess: !anonAccessEnabled,
      isDefaultProjectAdmin: false,
      mustChangePassword: false,
      realm: 'internal',
      lastLoggedIn: null,
      xrayPermissions,
    };
  }
  const { user } = principal;
  const admin = user.admin === 1;
  return {
    name: user.name,
    email: user.email,
    admin,
    anonAccessEnabled,
    disableUIAccess: user.disable_ui_access === 1,
    isDefaultProjectAdmin: admin || (await isProjectAdmin(db, principal, DEFAULT_PROJECT.key)),
    mustChangePassword: user.must_change_password === 1,
    realm: user.realm,
    lastLoggedIn: user.last_login_at === null ? null : new Date(user.last_login_at).toISOString(),
    passwordExpiresAt: await passwordExpiryWarning(db, user),
    xrayPermissions,
  };
}

/**
 * Checks a user name and password, with lockout: `maxFailures` failures within `windowMs` lock the
 * name for `lockMs`. Unknown names are throttled the same way, so lockout reveals nothing.
 */
export async function authenticate(
  db: Db,
  config: Config,
  name: string,
  password: string,
  now = Date.now(),
): Promise<UserRow> {
  // a directory user is found however the name is spelt: the directory compares names that way
  let user =
    (await findUserByName(db, name)) ??
    (await findUsersByFoldedName(db, name)).filter((u) => u.realm === LDAP_REALM).at(0);
  let failures = await refuseWhileLocked(db, user?.name ?? name, now);
  let ok = false;
  if (!user || user.realm === LDAP_REALM) {
    // a name Arca does not know, or a directory user: the directory decides
    let outcome: DirectoryOutcome;
    try {
      outcome = await directorySignIn(db, name, password, user);
    } catch (error) {
      if (error instanceof DirectoryError) throw unauthorized(error.message);
      throw error;
    }
    if (typeof outcome === 'object' && 'user' in outcome) {
      // the entry's own account: its lockout holds whatever spelling was typed
      if (outcome.user.name !== (user?.name ?? name)) failures = await refuseWhileLocked(db, outcome.user.name, now);
      user = outcome.user;
      ok = true;
    } else if (typeof outcome === 'object') {
      // the entry was found and the password refused: the failure counts on the entry's account
      const account = user ?? (await findUsersByFoldedName(db, outcome.refused)).at(0);
      const warning = await recordLoginFailure(db, config, account?.name ?? outcome.refused, account, now);
      throw unauthorized(warning ?? AUTH_MESSAGES.badCredentials);
    } else if (user) {
      // a directory user the directory no longer knows has no other way in
      const warning = await recordLoginFailure(db, config, user.name, user, now);
      throw unauthorized(warning ?? AUTH_MESSAGES.badCredentials);
    }
  }
  if (!ok) {
    dummyHash ??= hashPassword(randomUUID());
    ok = await verifyPassword(password, user?.password_hash ?? (await dummyHash));
  }
  if (user && ok) {
    // a password is the whole proof only without a second factor: wrong codes stay counted until
    // a right one (a correct password must not hand out fresh guesses at the code)
    if (failures && user.mfa_enrolled_at === null) await clearLoginFailures(db, user.name);
    return user;
  }
  const warning = await recordLoginFailure(db, config, user?.name ?? name, user, now);
  throw unauthorized(warning ?? AUTH_MESSAGES.badCredentials);
}

/** Logs a user in to the console: checks UI access, records the login, opens a session. */
export interface OpenedSession {
  user: UserRow;
  token: string;
  maxAgeMs: number | undefined;
}

/** Opens a console session for a user who passed every sign-in step, and records the login. */
export async function openSession(
  db: Db,
  config: Config,
  user: UserRow,
  rememberMe: boolean,
  now = Date.now(),
): Promise<OpenedSession> {
  const settings = await getSecuritySettings(db, config);
  const remember = rememberMe && config.session.canRememberMe;
  const token = randomBytes(32).toString('base64url');
  const lifetime = remember ? config.session.rememberMeMs : config.session.absoluteTimeoutMs;
  await insertSession(db, {
    id: hashToken(token),
    user_id: user.id,
    created_at: now,
    last_seen_at: now,
    expires_at: now + lifetime,
    idle_timeout_ms: remember ? config.session.rememberMeMs : settings.sessionIdleMinutes * 60_000,
    remember_me: remember ? 1 : 0,
  });
  await setLastLogin(db, user.id, now);
  return { user: { ...user, last_login_at: now }, token, maxAgeMs: remember ? lifetime : undefined };
}

/** Refuses a user whose password must be changed first: the console then shows change-password. */
export async function checkPasswordFreshness(db: Db, config: Config, user: UserRow, now = Date.now()): Promise<void> {
  if (user.must_change_password === 1) {
    throw new HttpError(403, PASSWORD_FLOW_MESSAGES.mustChange, AUTH_ERROR_CODES.credentialsExpired);
  }
  const { passwordExpiryDays } = await getSecuritySettings(db, config);
  const changed = user.password_changed_at ?? user.created_at;
  if (passwordExpiryDays > 0 && changed + passwordExpiryDays * 86_400_000 <= now) {
    throw new HttpError(403, PASSWORD_FLOW_MESSAGES.passwordExpired, AUTH_ERROR_CODES.passwordExpired);
  }
}

export type LoginOutcome =
  | ({ kind: 'session' } & OpenedSession)
  | { kind: 'mfa'; status: 'enroll' | 'verify'; user: UserRow; rememberMe: boolean };

/**
 * Logs a user in to the console: password (with lockout), UI access, password freshness, then
 * either a session or the second factor (enrol when required and not set up, else verify).
 */
export async function login(
  db: Db,
  config: Config,
  name: string,
  password: string,
  rememberMe: boolean,
  now = Date.now(),
): Promise<LoginOutcome> {
  const user = await authenticate(db, config, name, password, now);
  return afterPassword(db, config, user, rememberMe, now);
}

/** The steps after a verified password (also after a password change, reset or invitation). */
export async function afterPassword(
  db: Db,
  config: Config,
  user: UserRow,
  rememberMe: boolean,
  now = Date.now(),
): Promise<LoginOutcome> {
  if (user.disable_ui_access === 1) throw forbidden(AUTH_MESSAGES.uiAccessDisabled);
  await checkPasswordFreshness(db, config, user, now);
  if (user.mfa_enrolled_at !== null) return { kind: 'mfa', status: 'verify', user, rememberMe };
  if ((await getSecuritySettings(db, config)).requireMfa) return { kind: 'mfa', status: 'enroll', user, rememberMe };
  return { kind: 'session', ...(await openSession(db, config, user, rememberMe, now)) };
}

/** The principal of a session cookie; expired or idle sessions are removed and count as anonymous. */
export async function resolveSession(db: Db, token: string | undefined, now = Date.now()): Promise<Principal> {
  if (!token) return { kind: 'anonymous' };
  const id = hashToken(token);
  const session = await findSession(db, id);
  if (!session) return { kind: 'anonymous' };
  if (session.expires_at <= now || session.last_seen_at + session.idle_timeout_ms <= now) {
    await deleteSession(db, id);
    return { kind: 'anonymous' };
  }
  const user = await findUserById(db, session.user_id);
  if (!user || user.disable_ui_access === 1) {
    await deleteSession(db, id);
    return { kind: 'anonymous' };
  }
  if (now - session.last_seen_at >= TOUCH_EVERY_MS) await touchSession(db, id, now);
  return { kind: 'user', user, sessionId: id };
}

export async function logout(db: Db, principal: Principal): Promise<void> {
  if (principal.kind === 'user' && principal.sessionId) await deleteSession(db, principal.sessionId);
}

/**
 * Creates the `admin` user on first start. Returns the generated password when none was
 * configured, so that the caller can print it once.
 */
export async function ensureAdminUser(db: Db, configuredPassword: string | undefined): Promise<string | undefined> {
  const existing = await db.selectFrom('users').select('id').where('admin', '=', 1).executeTakeFirst();
  if (existing) return undefined;
  const password = configuredPassword ?? generatePassword();
  await insertUser(db, {
    id: randomUUID(),
    name: BUILT_IN_ADMIN,
    email: null,
    password_hash: await hashPassword(password),
    admin: 1,
    disable_ui_access: 0,
    must_change_password: 0,
    realm: 'internal',
    created_at: Date.now(),
    last_login_at: null,
  });
  return configuredPassword ? undefined : password;
}
