import { z } from 'zod';

/**
 * Access federation (spec part 1 §2 mission_control/access_federation, §3 Federation; part 2
 * §7.5, §8.6): users, groups, permissions and tokens kept alike between deployments, in a full
 * mesh (every member sends its changes to every other) or a star (one source sends to its
 * targets). The management deployment configures each member; each member sends its own changes
 * through its outbox to its peers, who keep the newer version by logical clock.
 */
export const FEDERATION_ENTITY_TYPES = ['USERS', 'GROUPS', 'PERMISSIONS', 'TOKENS'] as const;
export type FederationEntityType = (typeof FEDERATION_ENTITY_TYPES)[number];

export const FEDERATION_ENTITY_LABELS: Record<FederationEntityType, string> = {
  USERS: 'Users',
  GROUPS: 'Groups',
  PERMISSIONS: 'Permissions',
  TOKENS: 'Tokens',
};

export const FEDERATION_TOPOLOGIES = ['MESH', 'STAR'] as const;
export type FederationTopology = (typeof FEDERATION_TOPOLOGIES)[number];

/** The id that stands for the deployment the console runs on, among the candidates. */
export const THIS_DEPLOYMENT = 'local';

/** The spec's texts (part 2 §8.6), and Arca's where the spec has none. */
export const FEDERATION_MESSAGES = {
  broadcastStarted: 'Broadcasting was initialized successfully',
  broadcastPartlyFailed: 'Broadcasting for some targets has failed:',
  noTargets: 'Targets do not exist, cannot trigger broadcast',
  broadcastConfirm: 'Full Broadcast will re-sync all the synced entities from the Source to all its Target',
  broadcastAdminKept:
    "Each target keeps its own 'admin' password: the built-in administrator's credentials travel only when you tick the box below.",
  broadcastAdminCredentials: "Also replace the targets' 'admin' password with the source's",
  broadcastAdminWarning:
    "The targets' built-in administrator will sign in with the source's 'admin' password; the one set on each target stops working.",
  entityReset: 'Entity Types configuration will be reset.',
  noEntity: 'Please select at least one entity to sync',
  meshMembers: 'A full mesh joins at least two deployments.',
  starTargets: 'Choose the source and at least one target.',
  sourceIsTarget: 'The source cannot be one of its own targets.',
  unknownMember: 'One of the chosen deployments is not registered.',
  notFound: 'No federation has this source.',
  saved: 'The federation was saved and sent to its members.',
  deleted: 'The federation was removed from its members.',
  /** {name} is replaced. */
  memberUnreachable: "The deployment '{name}' could not be configured",
  busy: 'The deployment belongs to another federation: remove that first.',
} as const;

const patternList = z.array(z.string().trim().min(1).max(200)).max(50).default([]);

/** Which permission targets travel: names matching an include pattern (all if none) and no exclude pattern (`*` wildcards). */
export const permissionsFilterSchema = z.object({
  include_patterns: patternList,
  exclude_patterns: patternList,
});
export type PermissionsFilter = z.infer<typeof permissionsFilterSchema>;

/** What the wizard sends: the topology, its members, what is synced. */
export const federationBodySchema = z
  .object({
    topology: z.enum(FEDERATION_TOPOLOGIES),
    /** Mesh: every member. Star: the source. */
    source: z.string().max(64).optional(),
    members: z.array(z.string().max(64)).max(50),
    entity_types: z.array(z.enum(FEDERATION_ENTITY_TYPES)).max(4),
    permissions_filter: permissionsFilterSchema.default({ include_patterns: [], exclude_patterns: [] }),
  })
  .superRefine((body, ctx) => {
    if (!body.entity_types.length)
      ctx.addIssue({ code: 'custom', path: ['entity_types'], message: FEDERATION_MESSAGES.noEntity });
    const unique = new Set(body.members);
    if (body.topology === 'MESH' && unique.size < 2)
      ctx.addIssue({ code: 'custom', path: ['members'], message: FEDERATION_MESSAGES.meshMembers });
    if (body.topology === 'STAR') {
      if (!body.source || !unique.size)
        ctx.addIssue({ code: 'custom', path: ['members'], message: FEDERATION_MESSAGES.starTargets });
      else if (unique.has(body.source))
        ctx.addIssue({ code: 'custom', path: ['members'], message: FEDERATION_MESSAGES.sourceIsTarget });
    }
  });
export type FederationBody = z.input<typeof federationBodySchema>;

export const federationCandidateSchema = z.object({ id: z.string(), name: z.string(), url: z.string() });
export type FederationCandidate = z.infer<typeof federationCandidateSchema>;

/** One source and where it sends (a mesh lists one row per member). */
export const federationSchema = z.object({
  source: federationCandidateSchema,
  targets: z.array(federationCandidateSchema),
  topology: z.enum(FEDERATION_TOPOLOGIES),
  /** Rows of one mesh share it. */
  group_id: z.string(),
  entity_types: z.array(z.enum(FEDERATION_ENTITY_TYPES)),
  permissions_filter: permissionsFilterSchema,
  created: z.string(),
  updated: z.string(),
});
export type Federation = z.infer<typeof federationSchema>;

/** What a member's broadcast sends besides every federated entity. */
export const memberBroadcastBodySchema = z.object({
  /** The built-in administrator's password replaces each target's own (off unless ticked). */
  admin_credentials: z.boolean().default(false),
});

export const broadcastBodySchema = memberBroadcastBodySchema.extend({ source: z.string().max(64) });

export const broadcastAnswerSchema = z.object({
  message: z.string(),
  sent: z.number(),
  failed: z.array(z.object({ target: z.string(), error: z.string() })),
});
export type BroadcastAnswer = z.infer<typeof broadcastAnswerSchema>;

/** A member's own view: what it sends, to whom, how each peer is doing, conflicts it settled. */
export const federationPeerStateSchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  pending: z.number(),
  failing: z.number(),
  last_error: z.string().nullable(),
});

export const federationConflictSchema = z.object({
  id: z.string(),
  at: z.string(),
  entity_type: z.enum(FEDERATION_ENTITY_TYPES),
  name: z.string(),
  kept: z.enum(['local', 'remote']),
  local_clock: z.string(),
  remote_clock: z.string(),
  peer: z.string(),
});
export type FederationConflict = z.infer<typeof federationConflictSchema>;

export const memberStateSchema = z.object({
  federated: z.boolean(),
  self: federationCandidateSchema.nullable(),
  entity_types: z.array(z.enum(FEDERATION_ENTITY_TYPES)),
  peers: z.array(federationPeerStateSchema),
  conflicts: z.array(federationConflictSchema),
});
export type MemberState = z.infer<typeof memberStateSchema>;

/** What a management deployment sends each member (deployment to deployment; the tokens are the member's to reach its peers). */
export const memberConfigSchema = z.object({
  group_id: z.string().max(64),
  topology: z.enum(FEDERATION_TOPOLOGIES),
  self: federationCandidateSchema,
  /** The management deployment that configured this member. */
  manager: federationCandidateSchema,
  peers: z.array(federationCandidateSchema.extend({ token: z.string().max(4096) })).max(50),
  entity_types: z.array(z.enum(FEDERATION_ENTITY_TYPES)).max(4),
  permissions_filter: permissionsFilterSchema,
});
export type MemberConfig = z.infer<typeof memberConfigSchema>;

export const entityVersionSchema = z.object({
  type: z.enum(FEDERATION_ENTITY_TYPES),
  name: z.string().max(512),
  clock: z.number().int().nonnegative(),
  origin: z.string().max(64),
  base_clock: z.number().int().nonnegative(),
  base_origin: z.string().max(64),
  data: z.record(z.string(), z.unknown()).nullable(),
});

export const applyBodySchema = z.object({
  origin: federationCandidateSchema,
  versions: z.array(entityVersionSchema).max(500),
});

export const applyAnswerSchema = z.object({ applied: z.number(), stale: z.number(), conflicts: z.number() });
