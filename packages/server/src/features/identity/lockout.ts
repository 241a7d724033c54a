import { AUTH_MESSAGES } from '@arca/contracts';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';
import { HttpError } from '../../core/errors.js';
import { credentialsChanged } from '../../core/credentials.js';
import { bumpConfigGeneration } from '../../core/config-cache.js';
import { getSecuritySettings } from '../security/index.js';
import { clearLoginFailures, findLoginFailures, listLocks, putLoginFailures } from './identity.store.js';

/** Who is locked out now, and until when (ms). */
export function lockedUsers(db: Db, now = Date.now()): Promise<Map<string, number>> {
  return listLocks(db, now);
}

/** Releases names from a lockout and forgets their failures (unknown or unlocked names are no-ops). */
export async function unlockUsers(db: Db, names: readonly string[]): Promise<void> {
  for (const name of names) await clearLoginFailures(db, name);
}

/** Why a sign-in failed: a wrong password, or a wrong second-factor code. */
export type FailureCause = 'password' | 'otp';

const lockedMessage = (until: number, now: number, cause: string) =>
  (cause === 'otp' ? AUTH_MESSAGES.lockedOtp : AUTH_MESSAGES.locked).replace(
    '{minutes}',
    String(Math.max(1, Math.ceil((until - now) / 60_000))),
  );

/** 429 while the name is locked; otherwise the failures counted so far, if any. */
export async function refuseWhileLocked(db: Db, name: string, now = Date.now()) {
  const failures = await findLoginFailures(db, name);
  if (failures?.locked_until && failures.locked_until > now) {
    throw new HttpError(429, lockedMessage(failures.locked_until, now, failures.cause));
  }
  return failures;
}

/**
 * Counts one failed proof of identity (a wrong password or second-factor code) for a name:
 * `maxFailures` within the window lock it for the policy's minutes (429 on the failure that locks).
 * Answers the warning to show when the next failure will lock (the same for unknown names).
 */
export async function recordLoginFailure(
  db: Db,
  config: Config,
  name: string,
  user: UserRow | undefined,
  now = Date.now(),
  cause: FailureCause = 'password',
): Promise<string | undefined> {
  const settings = await getSecuritySettings(db, config);
  const { windowMs } = config.loginLockout;
  const maxFailures = settings.lockoutEnabled ? settings.lockoutAttempts : Number.POSITIVE_INFINITY;
  const lockMs = settings.lockoutMinutes * 60_000;
  const failures = await findLoginFailures(db, name);
  const inWindow = failures !== undefined && failures.window_start + windowMs > now && !failures.locked_until;
  const count = inWindow ? failures.failures + 1 : 1;
  const lockedUntil = count >= maxFailures ? now + lockMs : null;
  await putLoginFailures(db, {
    user_name: name,
    failures: count,
    window_start: inWindow ? failures.window_start : now,
    locked_until: lockedUntil,
    cause,
  });
  if (lockedUntil) {
    // a locked user's cached client credentials stop working too
    if (user) {
      credentialsChanged(user.id);
      // … on every worker and node
      await bumpConfigGeneration(db);
    }
    throw new HttpError(429, lockedMessage(lockedUntil, now, cause));
  }
  return count === maxFailures - 1
    ? AUTH_MESSAGES.lastAttempt.replace('{minutes}', String(settings.lockoutMinutes))
    : undefined;
}
