import { z } from 'zod';

export const ANONYMOUS_USER = 'anonymous';

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
  xrayPermissions: z.object({
    canManage: z.boolean(),
    isWatchManager: z.boolean(),
    isPolicyManager: z.boolean(),
    isPolicyViewer: z.boolean(),
  }),
});
export type UserData = z.infer<typeof userDataSchema>;

/** Anonymous means a name that is empty or 'anonymous'. */
export function isAnonymousName(name: string | null | undefined): boolean {
  return !name || name === ANONYMOUS_USER;
}

export const loginBodySchema = z.object({
  user: z.string().trim().min(1, 'This field is mandatory.').max(256),
  password: z.string().min(1, 'This field is mandatory.').max(1024),
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
  loginRequired: 'Authentication is required.',
  adminRequired: 'This action needs administrator rights.',
} as const;
