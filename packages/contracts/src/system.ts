import { z } from 'zod';

/** Service names of spec part 1 §3. */
export const SERVICE_NAMES = [
  'mc',
  'insight',
  'artifactory',
  'access',
  'metadata',
  'distribution',
  'pipelines',
  'event',
  'replicator',
  'tracker',
  'jfconnect',
  'xray',
] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Log service keys (spec part 2 §9). */
export const LOG_SERVICE_KEYS = ['jfrt', 'jfmc', 'jfxr', 'jfds', 'jfpip', 'jfisv'] as const;

/** A node is Online while its last heartbeat is younger than this. */
export const NODE_ONLINE_WINDOW_MS = 30_000;

export const versionSchema = z.object({
  version: z.string(),
  revision: z.string(),
  addons: z.array(z.string()),
  license: z.string(),
});
export type VersionInfo = z.infer<typeof versionSchema>;

/**
 * The Artifactory version Arca answers at `/artifactory/api/system/version`: the API level it
 * speaks, newer than the gates of the JFrog CLI and the Terraform provider, so that they take
 * their current code paths (docs/decisions.md). Arca's own version is in `arca`.
 */
export const ARTIFACTORY_API_LEVEL = '7.90.0';
export const artifactoryVersionSchema = versionSchema.extend({
  arca: z.object({ version: z.string(), revision: z.string() }),
});

export const microServiceStatusSchema = z.object({
  last_heartbeat: z.string(),
  uptime: z.number().int(),
  status: z.enum(['Online', 'Offline']),
});

export const nodeStatusSchema = z.object({
  node_id: z.string(),
  service_id: z.string(),
  host: z.string(),
  version: z.string(),
  status: z.enum(['Online', 'Offline']),
  started_at: z.string(),
  micro_services: z.record(z.string(), microServiceStatusSchema),
});
export type NodeStatus = z.infer<typeof nodeStatusSchema>;

export const nodesAnswerSchema = z.object({ nodes: z.array(nodeStatusSchema) });
export type NodesAnswer = z.infer<typeof nodesAnswerSchema>;

/** Services keyed by name, each with its Online nodes only; services with none are dropped. */
export const haAnswerSchema = z.object({
  services: z.record(z.string(), z.array(nodeStatusSchema)),
});
export type HaAnswer = z.infer<typeof haAnswerSchema>;

/** Which services this deployment runs. */
export const microservicesEnabledSchema = z.object({
  services: z.record(z.string(), z.boolean()),
});
export type MicroservicesEnabled = z.infer<typeof microservicesEnabledSchema>;

export const featuresConfigSchema = z.object({
  features: z.record(z.string(), z.boolean()),
});
export type FeaturesConfig = z.infer<typeof featuresConfigSchema>;

export const adoptionMetricBodySchema = z.object({
  featureName: z.string().trim().min(1, 'This field is mandatory.').max(200),
  action: z.string().trim().min(1, 'This field is mandatory.').max(200),
  type: z.literal('Increase').default('Increase'),
  value: z.number().int().positive().max(1_000_000).default(1),
});
export type AdoptionMetricBody = z.infer<typeof adoptionMetricBodySchema>;
