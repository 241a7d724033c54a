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
export { reflectExternalUser, type ExternalIdentity } from './external-users.js';
