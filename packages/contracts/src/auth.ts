import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

/** User data answered by `GET ui/auth/current` and by a successful login (spec part 1 §3). */
export const userDataSchema = z.object({
  name: z.string(),
  email: z.string().nullable(),
  admin: z.boolean(),
  anonAccessEnabled: z.boolean(),
  disableUIAccess: z.boolean(),
  isDefaultProjectAdmin: z.boolean(),
  mustChangePassword: z.boolean(),
  realm: z.string(),
  lastLoggedIn: z.string().nullable(),
  /** When the password expires, once it is within the policy's warning period; null otherwise. */
  passwordExpiresAt: z.string().nullable().optional(),
  xrayPermissions: z.object({
    canManage: z.boolean(),
    isWatchManager: z.boolean(),
    isPolicyManager: z.boolean(),
    isPolicyViewer: z.boolean(),
  }),
});
export type UserData = z.infer<typeof userDataSchema>;

/**
 * Whether a user who is no administrator holds a security scanning role (policy viewer, policy
 * manager, watch manager): the Security & Compliance pages open to them, with what their roles allow.
 */
export const holdsScanningRole = ({ xrayPermissions: p }: Pick<UserData, 'xrayPermissions'>) =>
  p.canManage || p.isPolicyViewer || p.isPolicyManager || p.isWatchManager;

export const loginBodySchema = z.object({
  user: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(256),
  password: z.string().min(1, ERROR_MESSAGES.mandatory).max(1024),
  type: z.literal('login').default('login'),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const loginQuerySchema = z.object({
  _spring_security_remember_me: z.enum(['true', 'false']).optional(),
});

export const loginRelatedDataSchema = z.object({
  forgotPassword: z.boolean(),
  canRememberMe: z.boolean(),
  ssoProviderLink: z.string().optional(),
});
export type LoginRelatedData = z.infer<typeof loginRelatedDataSchema>;

export const footerSchema = z.object({
  buildNumber: z.string(),
  version: z.string(),
  license: z.string(),
  licenseLabel: z.string(),
  licensedTo: z.string().nullable(),
  userEmail: z.string().nullable(),
  logoUrl: z.string().nullable(),
  userLogo: z.string().nullable(),
  serverName: z.string(),
});
export type Footer = z.infer<typeof footerSchema>;

export const globalStateSchema = z.object({
  serverName: z.string(),
  /** How the console writes dates (dayjs tokens); empty for the browser's own format. */
  dateFormat: z.string(),
  /** Largest file the console deploys, in MB; 0 for no limit. */
  fileUploadMaxSizeMb: z.number().int(),
  anonAccessEnabled: z.boolean(),
  licenseEdition: z.string(),
  licenseRank: z.number().int(),
  cloud: z.boolean(),
  dedicatedCloud: z.boolean(),
  lightweight: z.boolean(),
});
export type GlobalState = z.infer<typeof globalStateSchema>;

export const AUTH_MESSAGES = {
  badCredentials: 'Incorrect username or password.',
  uiAccessDisabled: 'UI access is disabled for this user.',
  /** The user is locked after too many failed logins; {minutes} is replaced. */
  locked: 'Too many failed login attempts. The user is locked for {minutes} minute(s).',
  /** The user is locked after too many wrong second-factor codes (across sign-ins); {minutes} is replaced. */
  lockedOtp: 'Too many wrong verification codes. The user is locked for {minutes} minute(s).',
  /** The failure before the one that locks; {minutes} is replaced. */
  lastAttempt: 'Bad credentials. One more failed attempt locks the user for {minutes} minute(s).',
  loginRequired: 'Authentication is required.',
  adminRequired: 'This action needs administrator rights.',
  /** A user with a second factor signs clients in with a token or API key, never the password alone. */
  tooManyFailures: 'Too many failed sign-ins from this address. Try again in a minute.',
  /** A container registry token presented anywhere but the registry's own calls. */
  registryTokenElsewhere:
    'A container registry token is accepted only by the registry (/v2/). Use an access token here.',
  /** `/v2/token` asked with a registry token: tokens are made from a password or an access token. */
  registryTokenRenew:
    'A registry token cannot make another token: sign in again with your password or an access token.',
  mfaUseToken: 'This user signs in with a second factor: use an access token or API key instead of the password.',
} as const;

/* ---------- Two-factor sign-in, password flows and invitations (spec part 1 §4, part 2 §7.1, §8.2) ---------- */

/** A login that needs a second step answers this instead of the user data (no session yet). */
export const mfaChallengeSchema = z.object({
  mfaStatus: z.enum(['enroll', 'verify']),
  authenticator: z.literal('totp'),
  userName: z.string(),
});
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;

export const loginAnswerSchema = z.union([userDataSchema, mfaChallengeSchema]);
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;

export function isMfaChallenge(answer: LoginAnswer): answer is MfaChallenge {
  return 'mfaStatus' in answer;
}

export const mfaEnrollmentSchema = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The otpauth URL as a PNG data URL, for authenticator apps to scan. */
  qrCode: z.string(),
});
export type MfaEnrollment = z.infer<typeof mfaEnrollmentSchema>;

export const otpBodySchema = z.object({
  otp: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'),
  authenticator: z.literal('totp').default('totp'),
});

/** Error codes the login page acts on (besides showing the message). */
export const AUTH_ERROR_CODES = {
  passwordExpired: 'PASSWORD_EXPIRED',
  credentialsExpired: 'CREDENTIALS_EXPIRED',
} as const;

export const PASSWORD_FLOW_MESSAGES = {
  /** Spec part 2 §8.2 defaults when the server gives no message. */
  emailNotSent: "Email wasn't sent",
  resetFailed: 'Failed to reset the password',
  changeFailed: 'Failed to change password',
  otpFailed: 'something went wrong',
  resetSent: 'If the user exists and has an e-mail address, a link to reset the password is on its way.',
  badResetLink: 'This link is not valid: it was used already, or it has expired. Ask for a new one.',
  badInvitation:
    'This invitation is not valid: it was used already, or it has expired. Ask an administrator for a new one.',
  passwordExpired: 'Your password has expired. Choose a new one to continue.',
  mustChange: 'Your password must be changed before you continue.',
  samePassword: 'The new password must differ from the current one.',
  mismatch: 'The new passwords do not match.',
  badOtp: 'The code is not valid. Codes change every 30 seconds; enter the current one.',
  otpExpired: 'The sign-in took too long. Log in again.',
  /** The enrolment page opened with no sign-in in progress and no session. */
  noPendingSignIn:
    'No sign-in is in progress. Log in first: two-factor authentication is set up while signing in, or from Edit Profile.',
  mfaAlreadyEnrolled: 'Two-factor authentication is already set up for this user.',
  mfaRequired: 'Two-factor authentication is required on this deployment.',
  mfaNeedsSession: 'Turn two-factor authentication off from a signed-in console session.',
  mailNotConfigured: 'Mail is not configured: set up a mail server first.',
} as const;

export const forgotPasswordBodySchema = z.object({
  user: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(256),
});
export const resetPasswordBodySchema = z.object({
  user: z.string().max(256).optional(),
  password: z.string().min(1, ERROR_MESSAGES.mandatory).max(1024),
});
export const keyQuerySchema = z.object({ key: z.string().min(1).max(256) });
export const changePasswordBodySchema = z.object({
  userName: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(256),
  oldPassword: z.string().min(1, ERROR_MESSAGES.mandatory).max(1024),
  newPassword1: z.string().min(1, ERROR_MESSAGES.mandatory).max(1024),
  newPassword2: z.string().max(1024).optional(),
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;
export const invitationTokenSchema = z.object({ token: z.string().min(1).max(256) });
export const setPasswordBodySchema = z.object({
  token: z.string().min(1).max(256),
  password: z.string().min(1, ERROR_MESSAGES.mandatory).max(1024),
});

/* ---------- Mail settings ---------- */

export const mailSettingsSchema = z.object({
  enabled: z.boolean(),
  host: z.string().max(256),
  port: z.number().int().min(1).max(65535),
  /** Implicit TLS (usually port 465). */
  useSsl: z.boolean(),
  /** STARTTLS upgrade (usually port 587). */
  useTls: z.boolean(),
  username: z.string().max(256),
  /** Empty on read when one is stored (`passwordSet`); empty on write keeps the stored one. */
  password: z.string().max(1024),
  passwordSet: z.boolean().optional(),
  from: z.string().max(320),
  subjectPrefix: z.string().max(100),
  /** The console's address as users reach it, for links in messages; the request's address when empty. */
  externalUrl: z.string().max(1024),
});
export type MailSettings = z.infer<typeof mailSettingsSchema>;

export const MAIL_MESSAGES = {
  hostRequired: 'Enter the mail server host.',
  fromInvalid: 'Enter a valid sender e-mail address.',
  urlInvalid: 'Enter a valid URL.',
  testSent: 'A test message was sent to {to}.',
  linkAddressRequired:
    'Links in mails need the address users reach this server at: set the link address in the mail settings, or ARCA_BASE_URL.',
} as const;

/* ---------- Browser sign-in of command-line clients (npm login --auth-type=web) ---------- */

/** How long a command-line client's browser sign-in waits for approval. */
export const WEB_LOGIN_LIFETIME_MS = 10 * 60_000;
/** Seconds a client waits before asking again whether its sign-in was approved. */
export const WEB_LOGIN_RETRY_AFTER_SECONDS = 1;

export const WEB_LOGIN_MESSAGES = {
  /** npm's password login of a user with a second factor; {registry} is replaced. */
  mfaNeedsWeb:
    'This user signs in with a second factor: run "npm login --auth-type=web --registry={registry}" and approve the sign-in in the browser, or use an access token.',
  gone: 'This sign-in request does not exist or has expired. Start it again from the command line.',
  denied: 'This sign-in was denied in the browser.',
  needsSession: 'Approve a sign-in from a signed-in console session.',
  approved: 'Signed in. You can close this page and return to the command line.',
  /** A CLI asking for its token before the user answered. */
  pending: 'The sign-in was not approved in the browser yet.',
  sessionTaken: 'This session was used already: start the login again from the command line.',
  /** The approval page opened without a request to approve. */
  noRequest:
    'This page approves a sign-in that a command line started. Run the login command (jf login, npm login --auth-type=web) and open the link it prints.',
} as const;

/** The CLI web login's request: the session id the client made (a UUID), kept secret until the browser opens. */
export const clientLoginRequestSchema = z.object({
  session: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{16,128}$/, 'The session must be 16 to 128 letters, digits or dashes (a UUID).'),
});

/** The code the browser shows, to compare with the one the command line prints: the session's last 4 characters. */
export const clientLoginCode = (session: string): string => session.slice(-4).toUpperCase();

/** A command-line client's pending browser sign-in, as the console shows it before approval. */
export const webLoginSchema = z.object({
  id: z.string(),
  /** The client that asked: `npm`. */
  client: z.string(),
  /** The machine it runs on, as the client said (or its user agent). */
  hostname: z.string(),
  sourceIp: z.string(),
  /** The address of the browser looking at the request: another one than `sourceIp` is worth a second look. */
  viewerIp: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  status: z.enum(['pending', 'approved', 'denied']),
});
export type WebLogin = z.infer<typeof webLoginSchema>;
