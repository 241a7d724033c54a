import type { SecuritySettings } from '@arca/contracts';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { getSetting, putSetting } from '../../core/settings.store.js';

/** The security settings in force: what an administrator saved, over the configured defaults. */
export async function getSecuritySettings(db: Db, config: Config): Promise<SecuritySettings> {
  const stored = await getSetting(db, 'security.policy');
  return {
    anonymousAccess: await getSetting(db, 'security.anonymousAccess'),
    hideUnauthorizedResources: false,
    passwordMinLength: 8,
    passwordExpiryDays: 0,
    passwordExpiryNotifyDays: 5,
    lockoutEnabled: config.loginLockout.maxFailures > 0,
    lockoutAttempts: Math.max(1, config.loginLockout.maxFailures),
    lockoutMinutes: Math.max(1, Math.round(config.loginLockout.lockMs / 60_000)),
    sessionIdleMinutes: Math.max(1, Math.round(config.session.idleTimeoutMs / 60_000)),
    requireMfa: false,
    tokenDefaultExpiryDays: 365,
    clientFailuresPerMinute: 30,
    outboundAllowedHosts: [],
    ...stored,
  };
}

export async function saveSecuritySettings(db: Db, settings: SecuritySettings): Promise<void> {
  const { anonymousAccess, ...policy } = settings;
  await putSetting(db, 'security.anonymousAccess', anonymousAccess);
  await putSetting(db, 'security.policy', policy);
}
