import { z } from 'zod';

/**
 * Platform deployments (spec part 1 §2 mission_control/platform_units, §3, §4, §5; part 2 §7.6,
 * §8.6, §9): other Arca deployments this one manages. Paired with a single-use token made on the
 * target (`POST /access/api/v1/pairing/token`), which the target exchanges for a service token;
 * the management deployment keeps that token (sealed), never an administrator's password.
 */
export const DEPLOYMENT_STATUSES = ['ONLINE', 'OFFLINE', 'PARTIAL', 'UNAUTHORIZED', 'UNAVAILABLE'] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

export const DEPLOYMENT_STATUS_LABELS: Record<DeploymentStatus, string> = {
  ONLINE: 'Online',
  OFFLINE: 'Offline',
  PARTIAL: 'some services are offline',
  UNAUTHORIZED: 'Unauthorized',
  UNAVAILABLE: 'Unavailable',
};

export const SERVICE_TYPES = [
  'PLATFORM',
  'LEGACY_SERVICE',
  'UNSUPPORTED_LEGACY_SERVICE',
  'UNKNOWN_SERVER',
  'LEGACY_SERVICE_UNKNOWN_VERSION',
  'ARTIFACTORY_FROM_PLATFORM',
] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/** How long a pairing token works, in seconds. */
export const PAIRING_TOKEN_SECONDS = 600;

/** The spec's texts (part 1 §5, part 2 §8.6), and Arca's where the spec has none. */
export const DEPLOYMENT_MESSAGES = {
  nameInvalid: 'Only letters, digits, dashes, underscores and periods, 1 to 200 characters.',
  urlInvalid: 'Invalid URL format',
  tokenRequired: 'Token required',
  tagInvalid: 'Tags are lowercase letters, digits and underscores, 2 to 50 characters.',
  /** {name} is replaced. */
  nameTaken: "A deployment named '{name}' is registered already.",
  notFound: 'Platform Deployment not found',
  deleted: 'Deployment deleted',
  deleteFailed: 'Deployment could not be deleted',
  testOk: 'Test connection was successful',
  testFailed: 'Test connection failed',
  reauthOk: 'Reauthentication was successful',
  registered: 'Platform registration was successful',
  registrationFailed: 'Platform registration failed',
  updated: 'Update was successful',
  updateFailed: 'Update failed',
  unresolved: 'Connection failed: Unable to resolve endpoint',
  notSupported: 'The Artifactory instance you are attempting to add is not supported. Please upgrade.',
  noVersion: 'Connection was successful. Unable to resolve service version.',
  unsupportedVersion: 'Connection failed: unsupported Artifactory version',
  pairingRefused: 'The pairing token is unknown, expired or used already. Make a new one on the deployment.',
  credentialsRefused: 'The deployment refused the user name and password.',
  self: 'This is the deployment you are on: register other deployments.',
  inFederation: 'The deployment belongs to an access federation: remove the federation first.',
  hasReplications: 'Replications use this deployment: delete them first.',
  urlChangeNeedsPairing:
    'A new URL is paired again: give a pairing token made on the deployment at that URL (or its administrator’s user name and password). The service token of the old URL is never sent to another address.',
} as const;

const nameRule = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._-]{1,200}$/, DEPLOYMENT_MESSAGES.nameInvalid);
const tagRule = z
  .string()
  .trim()
  .regex(/^[a-z0-9_]{2,50}$/, DEPLOYMENT_MESSAGES.tagInvalid);
const urlRule = z
  .string()
  .trim()
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, DEPLOYMENT_MESSAGES.urlInvalid);

export const deploymentLocationSchema = z.object({
  city: z.string().trim().max(100).default(''),
  latitude: z.number().min(-90).max(90).nullable().default(null),
  longitude: z.number().min(-180).max(180).nullable().default(null),
});
export type DeploymentLocation = z.infer<typeof deploymentLocationSchema>;

/** Registration: a pairing token from the target, or (instead) a user name and password used once. */
export const deploymentBodySchema = z
  .object({
    name: nameRule,
    url: urlRule,
    tags: z.array(tagRule).max(50).default([]),
    location: deploymentLocationSchema.default({ city: '', latitude: null, longitude: null }),
    pairing_token: z.string().trim().max(512).optional(),
    username: z.string().trim().max(64).optional(),
    password: z.string().max(1024).optional(),
  })
  .refine((body) => Boolean(body.pairing_token) || Boolean(body.username && body.password), {
    message: DEPLOYMENT_MESSAGES.tokenRequired,
    path: ['pairing_token'],
  });
export type DeploymentBody = z.input<typeof deploymentBodySchema>;

/**
 * An update: name, URL, tags, location. A new URL comes with credentials for the deployment there
 * (it is paired again); otherwise credentials change by re-authentication.
 */
export const deploymentUpdateSchema = z.object({
  name: nameRule,
  url: urlRule,
  tags: z.array(tagRule).max(50).default([]),
  location: deploymentLocationSchema.default({ city: '', latitude: null, longitude: null }),
  pairing_token: z.string().trim().max(512).optional(),
  username: z.string().trim().max(64).optional(),
  password: z.string().max(1024).optional(),
});
export type DeploymentUpdate = z.input<typeof deploymentUpdateSchema>;

export const reauthBodySchema = z
  .object({
    pairing_token: z.string().trim().max(512).optional(),
    username: z.string().trim().max(64).optional(),
    password: z.string().max(1024).optional(),
  })
  .refine((body) => Boolean(body.pairing_token) || Boolean(body.username && body.password), {
    message: DEPLOYMENT_MESSAGES.tokenRequired,
    path: ['pairing_token'],
  });

export const deploymentServiceSchema = z.object({ name: z.string(), status: z.string() });

export const deploymentSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  tags: z.array(z.string()),
  location: deploymentLocationSchema,
  status: z.enum(DEPLOYMENT_STATUSES),
  status_details: z.string(),
  service_type: z.enum(SERVICE_TYPES),
  services: z.array(deploymentServiceSchema),
  version: z.string(),
  checked_at: z.string().nullable(),
  created: z.string(),
  created_by: z.string(),
  /** What it reported last: nodes online, projects, the ids of its licences in force. */
  nodes: z.number().int(),
  projects: z.number().int(),
  licenses: z.array(z.string()),
});
export type Deployment = z.infer<typeof deploymentSchema>;

export const pairingTokenSchema = z.object({ token: z.string(), expires_at: z.string() });

/** What the target answers a management deployment that brings a valid pairing token. */
export const pairingExchangeSchema = z.object({
  access_token: z.string(),
  token_id: z.string(),
  name: z.string(),
  version: z.string(),
});

/** The topology dashboard: every deployment (this one first) and the links between them. */
export const topologyNodeSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  self: z.boolean(),
  status: z.enum(DEPLOYMENT_STATUSES),
  status_details: z.string(),
  version: z.string(),
  services: z.array(deploymentServiceSchema),
  location: deploymentLocationSchema,
  tags: z.array(z.string()),
  /** What the deployment stores (null when it could not be asked). */
  storage: z
    .object({
      artifacts_count: z.string(),
      artifacts_size: z.string(),
      binaries_size: z.string(),
      repositories: z.number(),
      used_space: z.string(),
      free_space: z.string(),
    })
    .nullable(),
});
export type TopologyNode = z.infer<typeof topologyNodeSchema>;

export const topologyLinkSchema = z.object({
  from: z.string(),
  to: z.string(),
  kind: z.enum(['federation', 'replication']),
  label: z.string(),
  /** A replication's last run status; '' for federation. */
  status: z.string(),
});
export type TopologyLink = z.infer<typeof topologyLinkSchema>;

export const topologySchema = z.object({
  nodes: z.array(topologyNodeSchema),
  links: z.array(topologyLinkSchema),
  checked_at: z.string(),
});
export type Topology = z.infer<typeof topologySchema>;

/** Traffic between this deployment and the others (replication bytes), the top deployments first. */
export const p2pUsageSchema = z.object({
  from: z.string(),
  to: z.string(),
  top: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      bytes: z.number(),
      files: z.number(),
      runs: z.number(),
    }),
  ),
});
export type P2pUsage = z.infer<typeof p2pUsageSchema>;
