export { decryptPassword, encryptPassword, looksEncrypted } from './encrypted-password.js';
export {
  clearMfa,
  deleteUserSessions,
  clearLoginFailures,
  findLoginFailures,
  findUserByEmail,
  findUserById,
  findUserByName,
  findUserBySubject,
  findUsersByFoldedName,
  insertUser,
  listLocks,
  putLoginFailures,
  setLastLogin,
  setMfaEnrolled,
  setMfaSecret,
  setPasswordHash,
  useOtpStep,
} from './identity.store.js';
export type { FailureCause } from './lockout.js';
export { lockedUsers, recordLoginFailure, refuseWhileLocked, unlockUsers } from './lockout.js';
export type { LiveToken, TokenPurpose } from './one-time-links.js';
export {
  TOKEN_LIFETIME_MS,
  consumeToken,
  issueToken,
  peekToken,
  purgeTokens,
  recentlyIssued,
  sendInvitation,
  setTokenData,
} from './one-time-links.js';
import type { TableName } from '../../db/schema.js';
export { reflectExternalUser, type ExternalIdentity } from './external-users.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['users', 'login_failures', 'one_time_tokens'] as const satisfies readonly TableName[];
