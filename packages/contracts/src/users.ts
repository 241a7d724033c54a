import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

/** One row of the users list of the administration console. */
export const userListItemSchema = z.object({
  name: z.string(),
  email: z.string().nullable(),
  admin: z.boolean(),
  disableUIAccess: z.boolean(),
  realm: z.string(),
  lastLoggedIn: z.string().nullable(),
  createdAt: z.string(),
  groups: z.array(z.string()),
  /** Administrator through a group with administrator privileges (not the user's own flag). */
  adminViaGroup: z.boolean(),
  mustChangePassword: z.boolean(),
  mfaEnrolled: z.boolean(),
  /** Until when sign-in is refused after too many failed attempts; null when not locked. */
  lockedUntil: z.string().nullable(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

export const userListSchema = z.array(userListItemSchema);

/** Users to release from a lockout (console and `POST /api/security/unlockUsers`). */
export const unlockUsersSchema = z.object({ names: z.array(z.string().min(1)).min(1, ERROR_MESSAGES.mandatory) });

/** Default page size of console lists (spec part 2 §9). */
export const DEFAULT_LIST_PAGE_SIZE = 100;

export const USER_MESSAGES = {
  nameFormat: 'A user name may contain letters, digits, dots, dashes, underscores and @, up to 64 characters.',
  nameTaken: "A user named '{name}' already exists.",
  notFound: "User '{name}' was not found.",
  passwordRequired: 'A new user needs a password.',
  emailForInvitation: 'An invited user needs an e-mail address to receive the invitation.',
  passwordTooShort: 'The password must be at least {n} characters long.',
  invalidEmail: 'Enter a valid e-mail address.',
  reserved: "The user name '{name}' is reserved.",
  lastAdmin: 'The last administrator cannot be deleted or lose administrator rights.',
  deleteSelf: 'You cannot delete your own user.',
} as const;

/** The administrator every deployment creates on its first start. */
export const BUILT_IN_ADMIN = 'admin';

export const USER_NAME_PATTERN = /^[A-Za-z0-9._@-]{1,64}$/;
/** An e-mail address as Arca accepts one: something, an @, a domain with a dot. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A user as the Artifactory-compatible REST API writes it (`PUT/POST /api/security/users/{name}`). */
export const userBodySchema = z.object({
  name: z.string().optional(),
  email: z.string().max(320).optional(),
  password: z.string().max(1024).optional(),
  admin: z.boolean().optional(),
  disableUIAccess: z.boolean().optional(),
  profileUpdatable: z.boolean().optional(),
  internalPasswordDisabled: z.boolean().optional(),
  groups: z.array(z.string()).optional(),
  mustChangePassword: z.boolean().optional(),
});
export type UserBody = z.infer<typeof userBodySchema>;

/** A user as the REST API answers it; the password is never sent. */
export const userAnswerSchema = z.object({
  name: z.string(),
  email: z.string(),
  admin: z.boolean(),
  profileUpdatable: z.boolean(),
  disableUIAccess: z.boolean(),
  internalPasswordDisabled: z.boolean(),
  lastLoggedIn: z.string().optional(),
  realm: z.string(),
  groups: z.array(z.string()),
});
export type UserAnswer = z.infer<typeof userAnswerSchema>;

export const userRefListSchema = z.array(z.object({ name: z.string(), uri: z.string(), realm: z.string() }));

/** The console's user form. */
export const userFormSchema = z.object({
  name: z.string().min(1, ERROR_MESSAGES.userNameRequired).regex(USER_NAME_PATTERN, USER_MESSAGES.nameFormat),
  email: z
    .string()
    .max(320)
    .refine((email) => !email || EMAIL_PATTERN.test(email), USER_MESSAGES.invalidEmail)
    .default(''),
  password: z.string().max(1024).optional(),
  admin: z.boolean().default(false),
  disableUIAccess: z.boolean().default(false),
  groups: z.array(z.string()).default([]),
  mustChangePassword: z.boolean().default(false),
  /** Create without a password and e-mail an invitation to choose one. */
  invite: z.boolean().optional(),
});
export type UserForm = z.input<typeof userFormSchema>;

export const bulkDeleteUsersSchema = z.object({ names: z.array(z.string()).min(1, ERROR_MESSAGES.mandatory) });
