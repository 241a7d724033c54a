import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { LDAP_MESSAGES, PASSWORD_FLOW_MESSAGES, type MfaEnrollment } from '@arca/contracts';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';
import { credentialsChanged } from '../../core/credentials.js';
import { bumpConfigGeneration } from '../../core/config-cache.js';
import { badRequest, conflict, forbidden, unauthorized } from '../../core/errors.js';
import { hashPassword, verifyPassword } from '../../core/passwords.js';
import { checkPassword } from '../users/index.js';
import { authenticate } from './auth.service.js';
import {
  clearLoginFailures,
  clearMfa,
  consumeToken,
  deleteUserSessions,
  findUserByEmail,
  findUserById,
  findUserByName,
  peekToken,
  recordLoginFailure,
  refuseWhileLocked,
  setMfaEnrolled,
  setMfaSecret,
  setPasswordHash,
  setTokenData,
  useOtpStep,
  type LiveToken,
} from '../identity/index.js';

/** Wrong codes allowed for one half-finished two-factor sign-in. */
const MAX_OTP_ATTEMPTS = 5;

/* ---------- TOTP ---------- */

function totp(user: UserRow, secret: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: 'Arca',
    label: user.name,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/** The time step a code matches (now or one step either side, for clock drift); null when none. */
export function otpStep(user: UserRow, secret: string, code: string, now = Date.now()): number | null {
  const delta = totp(user, secret).validate({ token: code, window: 1, timestamp: now });
  return delta === null ? null : Math.floor(now / 30_000) + delta;
}

/**
 * Accepts a code once: its step must be later than the last one used, and is recorded in the
 * same statement (two requests racing with one code cannot both pass).
 */
async function useCode(db: Db, user: UserRow, secret: string, code: string): Promise<boolean> {
  const step = otpStep(user, secret, code);
  if (step === null) return false;
  return useOtpStep(db, user.id, step);
}

/**
 * Starts (or restarts) enrolment: a new secret is stored unconfirmed, and answered with its
 * otpauth URL and QR code. An enrolled user must have it reset first.
 */
export async function startEnrollment(db: Db, user: UserRow): Promise<MfaEnrollment> {
  if (user.mfa_enrolled_at !== null) throw conflict(PASSWORD_FLOW_MESSAGES.mfaAlreadyEnrolled);
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await setMfaSecret(db, user.id, secret);
  const otpauthUrl = totp(user, secret).toString();
  return { secret, otpauthUrl, qrCode: await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 }) };
}

/** Confirms enrolment with a first code. */
export async function confirmEnrollment(db: Db, userId: string, code: string, now = Date.now()): Promise<UserRow> {
  const user = await findUserById(db, userId);
  if (!user?.mfa_secret || user.mfa_enrolled_at !== null) throw badRequest(PASSWORD_FLOW_MESSAGES.badOtp);
  if (!(await useCode(db, user, user.mfa_secret, code))) throw badRequest(PASSWORD_FLOW_MESSAGES.badOtp);
  await setMfaEnrolled(db, user.id, now);
  // from now on the password alone no longer signs a client in: caches of verified passwords drop it
  credentialsChanged(user.id);
  await bumpConfigGeneration(db);
  return { ...user, mfa_enrolled_at: now };
}

/**
 * Checks the code of a half-finished sign-in. Wrong codes count toward the user's lockout, like
 * wrong passwords (signing in again gives no fresh guesses), and after the last one for this
 * sign-in it is over (403, the console returns to login).
 */
export async function verifyLoginOtp(db: Db, config: Config, pending: LiveToken, code: string): Promise<void> {
  const { user } = pending;
  await refuseWhileLocked(db, user.name);
  if (user.mfa_secret && user.mfa_enrolled_at !== null && (await useCode(db, user, user.mfa_secret, code))) {
    await clearLoginFailures(db, user.name);
    return;
  }
  const attempts = Number(pending.data.attempts ?? 0) + 1;
  const last = attempts >= MAX_OTP_ATTEMPTS;
  if (last) await consumeToken(db, pending.hash);
  else await setTokenData(db, pending.hash, { ...pending.data, attempts });
  // answers 429 on the failure that locks the user
  await recordLoginFailure(db, config, user.name, user, Date.now(), 'otp');
  throw last ? forbidden(PASSWORD_FLOW_MESSAGES.otpExpired) : unauthorized(PASSWORD_FLOW_MESSAGES.badOtp);
}

/** A signed-in user proves the second factor again (before removing it); wrong codes count toward lockout. */
export async function verifyCurrentOtp(db: Db, config: Config, user: UserRow, code: string): Promise<void> {
  await refuseWhileLocked(db, user.name);
  if (user.mfa_secret && user.mfa_enrolled_at !== null && (await useCode(db, user, user.mfa_secret, code))) return;
  await recordLoginFailure(db, config, user.name, user, Date.now(), 'otp');
  throw badRequest(PASSWORD_FLOW_MESSAGES.badOtp);
}

/** Removes a user's second factor (an administrator's reset, or the user's own choice). */
export async function resetMfa(db: Db, userId: string): Promise<void> {
  await clearMfa(db, userId);
  credentialsChanged(userId);
  await bumpConfigGeneration(db);
}

/* ---------- Passwords ---------- */

/** Sets a new password: policy checked, sessions ended, cached client credentials dropped. */
export async function setPassword(db: Db, user: UserRow, password: string, now = Date.now()): Promise<UserRow> {
  await checkPassword(db, password);
  const hash = await hashPassword(password);
  await setPasswordHash(db, user.id, hash, now);
  await deleteUserSessions(db, user.id);
  credentialsChanged(user.id);
  // other workers and nodes drop their cached verdicts on their next request
  await bumpConfigGeneration(db);
  return { ...user, password_hash: hash, password_changed_at: now, must_change_password: 0 };
}

/** The change-password screen: the current password (with lockout), then the new one twice. */
export async function changePassword(
  db: Db,
  config: Config,
  input: { userName: string; oldPassword: string; newPassword1: string; newPassword2?: string | undefined },
): Promise<UserRow> {
  if (input.newPassword2 !== undefined && input.newPassword1 !== input.newPassword2) {
    throw badRequest(PASSWORD_FLOW_MESSAGES.mismatch);
  }
  const user = await authenticate(db, config, input.userName, input.oldPassword);
  if (user.realm !== 'internal') throw badRequest(LDAP_MESSAGES.passwordInDirectory);
  if (await verifyPassword(input.newPassword1, user.password_hash))
    throw badRequest(PASSWORD_FLOW_MESSAGES.samePassword);
  return setPassword(db, user, input.newPassword1);
}

/** Finds the user a forgot-password request names, by name or e-mail; undefined reveals nothing. */
export async function findResettableUser(db: Db, nameOrEmail: string): Promise<UserRow | undefined> {
  const byName = await findUserByName(db, nameOrEmail);
  const user = byName ?? (await findUserByEmail(db, nameOrEmail));
  if (!user?.email || user.realm !== 'internal') return undefined;
  return user;
}

/** Uses a reset or invitation token once to set the password. */
export async function redeemToken(
  db: Db,
  token: string,
  purpose: 'reset' | 'invite',
  password: string,
  expectedUser?: string,
): Promise<UserRow> {
  const live = await peekToken(db, token, purpose);
  const invalid = purpose === 'reset' ? PASSWORD_FLOW_MESSAGES.badResetLink : PASSWORD_FLOW_MESSAGES.badInvitation;
  if (!live || (expectedUser && expectedUser !== live.user.name)) throw badRequest(invalid);
  await checkPassword(db, password);
  if (!(await consumeToken(db, live.hash))) throw badRequest(invalid);
  return setPassword(db, live.user, password);
}
