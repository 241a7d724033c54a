import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

/** What a principal may do with a resource, weakest first; each action includes the ones before it. */
export const PERMISSION_ACTIONS = ['read', 'annotate', 'deploy', 'delete', 'manage'] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

export const PERMISSION_ACTION_LABELS: Record<PermissionAction, string> = {
  read: 'Read',
  annotate: 'Annotate',
  deploy: 'Deploy/Cache',
  delete: 'Delete/Overwrite',
  manage: 'Manage',
};

/** Artifactory's REST names for the actions: write = deploy/cache, delete = delete/overwrite. */
export const REST_ACTION_NAMES: Record<PermissionAction, string> = {
  read: 'read',
  annotate: 'annotate',
  deploy: 'write',
  delete: 'delete',
  manage: 'manage',
};

/** Repository entries that stand for every repository of a class. */
export const ANY_REPOSITORY = 'ANY';
export const ANY_LOCAL = 'ANY LOCAL';
export const ANY_REMOTE = 'ANY REMOTE';
export const ANY_VIRTUAL = 'ANY VIRTUAL';
export const ANY_REPOSITORY_CHOICES = [ANY_REPOSITORY, ANY_LOCAL, ANY_REMOTE, ANY_VIRTUAL] as const;

export const PERMISSION_RESOURCES = ['repo', 'build', 'releaseBundle'] as const;
export type PermissionResourceKind = (typeof PERMISSION_RESOURCES)[number];

export const PERMISSION_RESOURCE_LABELS: Record<PermissionResourceKind, string> = {
  repo: 'Repositories',
  build: 'Builds',
  releaseBundle: 'Release Bundles',
};

export const ACCESS_MESSAGES = {
  groupNameFormat: 'A group name may contain letters, digits, dots, dashes and underscores, up to 64 characters.',
  groupTaken: "A group named '{name}' already exists.",
  groupNotFound: "Group '{name}' was not found.",
  targetNameFormat: 'A permission name may contain letters, digits, spaces, dots, dashes and underscores, up to 128.',
  targetTaken: "A permission named '{name}' already exists.",
  targetNotFound: "Permission '{name}' was not found.",
  noResource: 'Choose at least one resource: repositories, builds or release bundles.',
  noRepositories: 'Choose at least one repository, or any local, remote or virtual repository.',
  unknownRepository: "Repository '{name}' does not exist.",
  unknownUser: "User '{name}' does not exist.",
  unknownGroup: "Group '{name}' does not exist.",
  unknownAction: "'{name}' is not an action; use read, annotate, write, delete or manage.",
  badPattern: "'{name}' is not a valid include or exclude pattern.",
} as const;

export const GROUP_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
export const TARGET_NAME_PATTERN = /^[A-Za-z0-9._ -]{1,128}$/;

/* ---------- Groups ---------- */

export const groupSchema = z.object({
  name: z.string(),
  description: z.string(),
  autoJoin: z.boolean(),
  adminPrivileges: z.boolean(),
  /** Security scanning roles of the members. */
  watchManager: z.boolean(),
  policyManager: z.boolean(),
  policyViewer: z.boolean(),
  realm: z.string(),
  members: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Group = z.infer<typeof groupSchema>;

export const groupFormSchema = z.object({
  name: z.string().min(1, ERROR_MESSAGES.mandatory).regex(GROUP_NAME_PATTERN, ACCESS_MESSAGES.groupNameFormat),
  description: z.string().max(1024).default(''),
  autoJoin: z.boolean().default(false),
  adminPrivileges: z.boolean().default(false),
  watchManager: z.boolean().default(false),
  policyManager: z.boolean().default(false),
  policyViewer: z.boolean().default(false),
  members: z.array(z.string()).default([]),
});
export type GroupForm = z.input<typeof groupFormSchema>;

/** A group as Artifactory's REST API reads and writes it. */
export const groupRestBodySchema = z.object({
  name: z.string().optional(),
  description: z.string().max(1024).optional(),
  autoJoin: z.boolean().optional(),
  adminPrivileges: z.boolean().optional(),
  watchManager: z.boolean().optional(),
  policyManager: z.boolean().optional(),
  policyViewer: z.boolean().optional(),
  realm: z.string().optional(),
  realmAttributes: z.string().optional(),
  userNames: z.array(z.string()).optional(),
});
export type GroupRestBody = z.infer<typeof groupRestBodySchema>;

/* ---------- Permission targets ---------- */

const actionList = z.array(z.enum(PERMISSION_ACTIONS));

export const permissionResourceSchema = z.object({
  /** Repository keys or the ANY entries; builds use 'artifactory-build-info', release bundles 'release-bundles'. */
  repositories: z.array(z.string().min(1)).default([]),
  includes: z.array(z.string()).default(['**']),
  excludes: z.array(z.string()).default([]),
  users: z.record(z.string(), actionList).default({}),
  groups: z.record(z.string(), actionList).default({}),
});
export type PermissionResource = z.infer<typeof permissionResourceSchema>;

export const permissionTargetSchema = z.object({
  name: z.string(),
  repo: permissionResourceSchema.nullable(),
  build: permissionResourceSchema.nullable(),
  releaseBundle: permissionResourceSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PermissionTarget = z.infer<typeof permissionTargetSchema>;

export const permissionTargetFormSchema = z.object({
  name: z.string().min(1, ERROR_MESSAGES.mandatory).regex(TARGET_NAME_PATTERN, ACCESS_MESSAGES.targetNameFormat),
  repo: permissionResourceSchema.nullable().default(null),
  build: permissionResourceSchema.nullable().default(null),
  releaseBundle: permissionResourceSchema.nullable().default(null),
});
export type PermissionTargetForm = z.input<typeof permissionTargetFormSchema>;

/** Artifactory's v2 permission body (`/api/v2/security/permissions/{name}`). */
const restResourceSchema = z.object({
  'include-patterns': z.array(z.string()).optional(),
  'exclude-patterns': z.array(z.string()).optional(),
  repositories: z.array(z.string()).optional(),
  actions: z
    .object({
      users: z.record(z.string(), z.array(z.string())).optional(),
      groups: z.record(z.string(), z.array(z.string())).optional(),
    })
    .optional(),
});
export type RestPermissionResource = z.infer<typeof restResourceSchema>;

export const permissionRestBodySchema = z.object({
  name: z.string().optional(),
  repo: restResourceSchema.optional(),
  build: restResourceSchema.optional(),
  releaseBundle: restResourceSchema.optional(),
});
export type PermissionRestBody = z.infer<typeof permissionRestBodySchema>;

/* ---------- Tokens ---------- */

export const TOKEN_SCOPE_USER = 'applied-permissions/user';
export const TOKEN_SCOPE_GROUPS_PREFIX = 'applied-permissions/groups:';

export const TOKEN_MESSAGES = {
  expired: 'The token has expired.',
  invalid: 'The token is not valid.',
  badScope: "Scope must be 'applied-permissions/user' or 'applied-permissions/groups:<names>'.",
  scopeGroupNotMember: "You are not a member of group '{name}'.",
  notFound: 'The token was not found.',
  noApiKey: 'This user has no API key.',
  adminScope: 'Only administrators may create tokens with the admin scope.',
  otherUser: 'Only administrators may create tokens for other users.',
  badRefresh: 'The refresh token is not valid.',
  revoked: 'Token revoked',
} as const;

export const accessTokenSchema = z.object({
  id: z.string(),
  user: z.string(),
  description: z.string(),
  scope: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type AccessToken = z.infer<typeof accessTokenSchema>;

/** The longest a token may live: ten years (the console offers no more). */
export const TOKEN_MAX_EXPIRES_IN_SECONDS = 10 * 366 * 24 * 3600;

export const createTokenSchema = z.object({
  description: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(1024),
  /** Seconds until expiry; 0 never expires. */
  expiresIn: z.number().int().min(0).max(TOKEN_MAX_EXPIRES_IN_SECONDS),
  scope: z.string().default(TOKEN_SCOPE_USER),
  /** Administrators only: the user the token is for (the caller when absent). */
  username: z.string().min(1, ERROR_MESSAGES.mandatory).max(64).optional(),
  /** With a refresh token that replaces the pair once (answered once, as the token is). */
  refreshable: z.boolean().optional(),
});
export type CreateToken = z.input<typeof createTokenSchema>;

/** Answered once at creation: the token itself is never stored or shown again. */
export const createdTokenSchema = accessTokenSchema.extend({ token: z.string(), refreshToken: z.string().optional() });
export type CreatedToken = z.infer<typeof createdTokenSchema>;

export const apiKeyStateSchema = z.object({
  exists: z.boolean(),
  createdAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKeyState = z.infer<typeof apiKeyStateSchema>;

/* ---------- Security settings ---------- */

export const securitySettingsSchema = z.object({
  anonymousAccess: z.boolean(),
  hideUnauthorizedResources: z.boolean(),
  passwordMinLength: z.number().int().min(4).max(128),
  /** Days a password lasts; 0 never expires. */
  passwordExpiryDays: z.number().int().min(0).max(3650),
  /** Days before expiry the user is told. */
  passwordExpiryNotifyDays: z.number().int().min(0).max(365),
  lockoutEnabled: z.boolean(),
  lockoutAttempts: z.number().int().min(1).max(100),
  lockoutMinutes: z.number().int().min(1).max(1440),
  sessionIdleMinutes: z.number().int().min(1).max(10080),
  requireMfa: z.boolean(),
  /** Days a token made by a client sign-in (npm login) lasts; 0 never expires. */
  tokenDefaultExpiryDays: z.number().int().min(0).max(3650).default(365),
  /**
   * Refused client credentials one address may present in a minute before it is answered 429
   * (with Retry-After) without checking them, on top of each user's lockout.
   */
  clientFailuresPerMinute: z.number().int().min(1).max(10000).default(30),
  /**
   * `host[:port]` that remote repositories and webhooks may reach although they are loopback or
   * link-local (an internal mirror on this host, say); besides `ARCA_OUTBOUND_ALLOWED_HOSTS`.
   */
  outboundAllowedHosts: z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(255)
        .regex(/^[A-Za-z0-9.\-:[\]]+$/, 'Enter a host name or address, optionally with :port.'),
    )
    .max(100)
    .default([]),
});
export type SecuritySettings = z.infer<typeof securitySettingsSchema>;

/* ---------- Audit trail ---------- */

export const AUDIT_CATEGORIES = [
  'auth',
  'user',
  'group',
  'permission',
  'token',
  'project',
  'repository',
  'license',
  'security',
  'system',
  'webhook',
  'release',
] as const;
export type AuditCategory = (typeof AUDIT_CATEGORIES)[number];
export const AUDIT_CATEGORY_LABELS: Record<AuditCategory, string> = {
  auth: 'Sign-in',
  user: 'Users',
  group: 'Groups',
  permission: 'Permissions',
  token: 'Tokens',
  project: 'Projects',
  repository: 'Repositories',
  license: 'Licenses',
  security: 'Settings',
  system: 'System',
  webhook: 'Webhooks',
  release: 'Release lifecycle',
};

export const auditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.string(),
  sourceIp: z.string(),
  category: z.enum(AUDIT_CATEGORIES),
  action: z.string(),
  target: z.string(),
  outcome: z.enum(['success', 'failure']),
  details: z.object({
    before: z.unknown().optional(),
    after: z.unknown().optional(),
    message: z.string().optional(),
  }),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditQuerySchema = z.object({
  category: z.enum(AUDIT_CATEGORIES).optional(),
  actor: z.string().max(256).optional(),
  outcome: z.enum(['success', 'failure']).optional(),
  q: z.string().max(256).optional(),
  from: z.coerce.number().int().optional(),
  to: z.coerce.number().int().optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(100),
});
export type AuditQuery = z.input<typeof auditQuerySchema>;
export type AuditFilter = z.output<typeof auditQuerySchema>;

export const auditPageSchema = z.object({ total: z.number(), events: z.array(auditEventSchema) });
export type AuditPage = z.infer<typeof auditPageSchema>;

/** What one grant lets a user or group do, as the Effective Permissions of a user, group or repository list it. */
export const effectivePermissionSchema = z.object({
  /** The permission target, or the project whose membership grants it. */
  source: z.object({ kind: z.enum(['target', 'project']), name: z.string() }),
  /** What the grant covers: repositories (or ANY entries), builds, release bundles. */
  resource: z.enum(['repo', 'build', 'releaseBundle']),
  /** Repository keys, ANY entries or build patterns. */
  covers: z.array(z.string()),
  includes: z.array(z.string()),
  excludes: z.array(z.string()),
  /** Who holds the grant: the user itself, one of its groups, or a group. */
  principal: z.object({ type: z.enum(['user', 'group']), name: z.string() }),
  actions: z.array(z.enum(PERMISSION_ACTIONS)),
});
export type EffectivePermission = z.infer<typeof effectivePermissionSchema>;

export const effectivePermissionsQuerySchema = z
  .object({ user: z.string().max(64), group: z.string().max(64), repo: z.string().max(64) })
  .partial()
  .refine((q) => [q.user, q.group, q.repo].filter(Boolean).length === 1, 'Name one user, group or repository.');

export const effectivePermissionsSchema = z.object({
  /** The user is an administrator (or the repository's page: administrators may do everything anyway). */
  admin: z.boolean(),
  grants: z.array(effectivePermissionSchema),
});
export type EffectivePermissions = z.infer<typeof effectivePermissionsSchema>;
