import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

/**
 * Directory sign-in: LDAP / Active Directory servers (Access's `/access/api/v1/ldap/settings`)
 * and the group settings that bring their groups in (`/access/api/v1/ldap/groups`). A directory
 * user signs in with the directory password in the console and with HTTP basic; the groups of the
 * directory become memberships of the Arca groups imported from it, refreshed at each sign-in.
 */
export const LDAP_GROUP_STRATEGIES = ['STATIC', 'DYNAMIC', 'HIERARCHICAL'] as const;
export type LdapGroupStrategy = (typeof LDAP_GROUP_STRATEGIES)[number];

export const LDAP_STRATEGY_LABELS: Record<LdapGroupStrategy, string> = {
  STATIC: 'Static — groups list their members (groupOfNames, member)',
  DYNAMIC: 'Dynamic — users list their groups (memberOf)',
  HIERARCHICAL: 'Hierarchy — the organisational units above the user',
};

/** The realm of users and groups that come from a directory. */
export const LDAP_REALM = 'ldap';

export const LDAP_MESSAGES = {
  keyInvalid: 'The name starts with a letter and holds letters, digits, dots, dashes and underscores only.',
  /** {key} is replaced. */
  keyTaken: "An LDAP setting named '{key}' exists already.",
  /** {key} is replaced. */
  notFound: "There is no LDAP setting '{key}'.",
  urlInvalid: 'The URL is ldap://host[:port][/base DN] or ldaps://…',
  userLookupMissing: 'Give a user DN pattern or a search filter, or both.',
  patternWithoutPlaceholder: 'The user DN pattern holds {0} where the user name goes, e.g. uid={0},ou=people.',
  filterWithoutPlaceholder: 'The search filter holds {0} where the user name goes, e.g. (uid={0}).',
  /** {key}, {names} are replaced. */
  inUse: "The LDAP setting '{key}' is used by the group settings {names}; delete them first.",
  /** {name} is replaced. */
  groupSettingTaken: "A group setting named '{name}' exists already.",
  /** {name} is replaced. */
  groupSettingNotFound: "There is no group setting '{name}'.",
  /** {url}, {reason} are replaced. */
  connectFailed: 'Could not connect to {url}: {reason}',
  /** {dn} is replaced. */
  bindRefused: "The server refused the bind of '{dn}': invalid credentials.",
  /** {base} is replaced. */
  baseNotFound: "The search base '{base}' does not exist on the server.",
  /** {filter} is replaced. */
  filterInvalid: "The filter '{filter}' is not a valid LDAP filter.",
  /** {user} is replaced. */
  userNotFound: "No directory entry matches the user '{user}'.",
  /** {user}, {dn} are replaced. */
  passwordRefused: "The user '{user}' was found ({dn}), but the password was refused.",
  connectionOk: 'Connected, and the bind succeeded.',
  passwordInDirectory: 'Your password is kept by your directory: change it there.',
  noAutoCreate: 'The directory knows you, but Arca creates no users for it: ask an administrator to add you.',
  /** {name} is replaced. */
  directoryGroupUnknown: "The directory has no group '{name}' under this group setting.",
  /** {dn}, {names} are replaced. */
  duplicateAccounts:
    'The directory entry {dn} has several Arca accounts ({names}): an administrator must delete all but one before it can sign in.',
  /** {name} is replaced. */
  nameOfOtherRealm: "The user name '{name}' belongs to a user of another realm; an administrator must resolve it.",
} as const;

const placeholderRule = (text: string) => !text || text.includes('{0}');

export const ldapSettingBodySchema = z
  .object({
    key: z
      .string()
      .trim()
      .min(1, ERROR_MESSAGES.mandatory)
      .max(64)
      .regex(/^[A-Za-z][A-Za-z0-9._-]*$/, LDAP_MESSAGES.keyInvalid),
    enabled: z.boolean().default(true),
    ldapUrl: z
      .string()
      .trim()
      .regex(/^ldaps?:\/\/[^/\s:]+(:\d{1,5})?(\/[^\s]*)?$/i, LDAP_MESSAGES.urlInvalid),
    /** Upgrade an ldap:// connection with StartTLS before binding. */
    startTls: z.boolean().default(false),
    userDnPattern: z
      .string()
      .trim()
      .max(512)
      .default('')
      .refine(placeholderRule, LDAP_MESSAGES.patternWithoutPlaceholder),
    searchFilter: z
      .string()
      .trim()
      .max(1024)
      .default('')
      .refine(placeholderRule, LDAP_MESSAGES.filterWithoutPlaceholder),
    searchBase: z.string().trim().max(1024).default(''),
    searchSubTree: z.boolean().default(true),
    managerDn: z.string().trim().max(1024).default(''),
    /** Write only: absent or undefined keeps the stored one; '' clears it. */
    managerPassword: z.string().max(1024).optional(),
    emailAttribute: z.string().trim().max(128).default('mail'),
    autoCreateUser: z.boolean().default(true),
  })
  .refine((s) => s.userDnPattern !== '' || s.searchFilter !== '', {
    message: LDAP_MESSAGES.userLookupMissing,
    path: ['userDnPattern'],
  });
export type LdapSettingBody = z.input<typeof ldapSettingBodySchema>;

export const ldapSettingSchema = z.object({
  key: z.string(),
  enabled: z.boolean(),
  ldapUrl: z.string(),
  startTls: z.boolean(),
  userDnPattern: z.string(),
  searchFilter: z.string(),
  searchBase: z.string(),
  searchSubTree: z.boolean(),
  managerDn: z.string(),
  /** A manager password is stored (it is never answered). */
  managerPasswordSet: z.boolean(),
  emailAttribute: z.string(),
  autoCreateUser: z.boolean(),
});
export type LdapSetting = z.infer<typeof ldapSettingSchema>;

export const ldapGroupSettingBodySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, ERROR_MESSAGES.mandatory)
    .max(64)
    .regex(/^[A-Za-z][A-Za-z0-9._-]*$/, LDAP_MESSAGES.keyInvalid),
  ldapSettingKey: z.string().min(1, ERROR_MESSAGES.mandatory),
  groupBaseDn: z.string().trim().max(1024).default(''),
  groupNameAttribute: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(128).default('cn'),
  /** STATIC: the group's attribute naming members (member, uniqueMember); DYNAMIC: the user's naming groups (memberOf). */
  groupMemberAttribute: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(128).default('member'),
  subTree: z.boolean().default(true),
  filter: z.string().trim().max(1024).default('(objectClass=groupOfNames)'),
  descriptionAttribute: z.string().trim().max(128).default('description'),
  strategy: z.enum(LDAP_GROUP_STRATEGIES).default('STATIC'),
});
export type LdapGroupSettingBody = z.input<typeof ldapGroupSettingBodySchema>;
export type LdapGroupSetting = z.infer<typeof ldapGroupSettingBodySchema>;

/** `test` of a setting: its connection, and optionally one user's sign-in. */
export const ldapTestBodySchema = z.object({
  setting: ldapSettingBodySchema,
  username: z.string().max(256).default(''),
  password: z.string().max(1024).default(''),
});
export type LdapTestBody = z.input<typeof ldapTestBodySchema>;

export const ldapTestResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  /** What the directory said of the user tested. */
  user: z.object({ dn: z.string(), email: z.string(), groups: z.array(z.string()) }).nullable(),
});
export type LdapTestResult = z.infer<typeof ldapTestResultSchema>;

/** A group of the directory, as a group setting finds it. */
export const ldapDirectoryGroupSchema = z.object({
  name: z.string(),
  dn: z.string(),
  description: z.string(),
  /** An Arca group of this name exists (imported, or made locally). */
  imported: z.boolean(),
});
export type LdapDirectoryGroup = z.infer<typeof ldapDirectoryGroupSchema>;

export const ldapImportBodySchema = z.object({ names: z.array(z.string().min(1)).min(1).max(500) });
