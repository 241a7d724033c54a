import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

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
  featureName: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(200),
  action: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(200),
  type: z.literal('Increase').default('Increase'),
  value: z.number().int().positive().max(1_000_000).default(1),
});
export type AdoptionMetricBody = z.infer<typeof adoptionMetricBodySchema>;

/** One consumer of the outbox as administrators see it (webhooks, indexers, replication). */
export const outboxConsumerSchema = z.object({
  name: z.string(),
  /** The event sequence below which every event is settled for it. */
  position: z.number(),
  /** Events after its position not yet delivered. */
  pending: z.number().int(),
  /** Events it gave up on after its last attempt. */
  dead: z.number().int(),
  lastError: z.string().nullable(),
});
export type OutboxConsumerState = z.infer<typeof outboxConsumerSchema>;
export const outboxAnswerSchema = z.object({ consumers: z.array(outboxConsumerSchema) });

/** One run of a scheduled job. */
export const jobRunSchema = z.object({
  id: z.string(),
  job: z.string(),
  node: z.string(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  outcome: z.enum(['running', 'success', 'failure', 'timeout']),
  message: z.string().nullable(),
});
export type JobRun = z.infer<typeof jobRunSchema>;

export const jobsAnswerSchema = z.object({
  /** The schedules this node runs, with their next run. */
  jobs: z.array(z.object({ name: z.string(), cron: z.string(), nextRun: z.number().nullable() })),
  /** The newest runs on every node, newest first. */
  runs: z.array(jobRunSchema),
});
export type JobsAnswer = z.infer<typeof jobsAnswerSchema>;
export const jobsQuerySchema = z.object({
  job: z.string().max(128).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** Products (service log keys) whose logs the log viewer shows: the services Arca runs. */
export const LOG_PRODUCTS = ['jfrt', 'jfac'] as const;
export type LogProduct = (typeof LOG_PRODUCTS)[number];

/** The live log refresh when the configuration does not give one (spec part 2 §9). */
export const LIVE_LOG_DEFAULT_REFRESH_MS = 10_000;

/** A log file's name: a product's current file or one of its rotated files. */
export const LOG_FILE_PATTERN = /^(jfrt|jfac)-[a-z]+(\.\d{4}-\d{2}-\d{2}\.\d+)?\.log$/;

/** `GET /system/logs/config/{logType}`: the node's files of a product, the nodes, and the refresh rate. */
export const logConfigSchema = z.object({
  logs: z.array(z.string()),
  nodes: z.array(z.string()),
  refresh_rate_millis: z.number().int(),
});
export type LogConfig = z.infer<typeof logConfigSchema>;

export const logConfigQuerySchema = z.object({ nodeId: z.string().max(256).optional() });

export const logDataQuerySchema = z.object({
  nodeId: z.string().max(256).optional(),
  id: z.string().regex(LOG_FILE_PATTERN, 'Unknown log file.'),
  file_size: z.coerce.number().int().min(0).default(0),
});

/**
 * `GET /system/logs/data/{logType}`: the text after `file_size` (the whole tail on a first load,
 * from the start again when the file was rotated), the new size to send next, the file's
 * modification time (epoch ms) and the time of this read as a label.
 */
export const logDataSchema = z.object({
  log_content: z.string(),
  file_size: z.number().int(),
  last_update_modified: z.number(),
  last_update_label: z.string(),
});
export type LogData = z.infer<typeof logDataSchema>;

/** Services a support bundle can be made for: those Arca runs (spec part 1 §2, part 2 §7.14). */
export const SUPPORT_BUNDLE_SERVICES = ['artifactory', 'access'] as const;
export type SupportBundleService = (typeof SUPPORT_BUNDLE_SERVICES)[number];
export const SUPPORT_BUNDLE_STATUSES = ['in progress', 'success', 'failure'] as const;
/** The list refresh after a creation (spec part 2 §9). */
export const SUPPORT_BUNDLE_REFRESH_MS = 3000;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'A date is written YYYY-MM-DD.');

/** What goes into a bundle. */
export const supportBundleParametersSchema = z
  .object({
    configuration: z.boolean().default(true),
    system: z.boolean().default(true),
    logs: z
      .object({
        include: z.boolean().default(true),
        start_date: day.optional(),
        end_date: day.optional(),
      })
      .default({ include: true })
      .refine((l) => !l.start_date || !l.end_date || l.start_date <= l.end_date, {
        message: 'The logs period ends before it starts.',
      }),
    thread_dump: z
      .object({
        count: z.number().int('Whole numbers only.').min(0).max(10).default(1),
        interval: z.number().int('Whole numbers only.').min(0).max(60).default(0),
        /** Whether the reports carry the process environment (secret values masked); off unless asked. */
        environment: z.boolean().default(false),
      })
      .default({ count: 1, interval: 0, environment: false }),
  })
  .default({
    configuration: true,
    system: true,
    logs: { include: true },
    thread_dump: { count: 1, interval: 0, environment: false },
  });
export type SupportBundleParameters = z.infer<typeof supportBundleParametersSchema>;

export const supportBundleBodySchema = z.object({
  name: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(200),
  description: z.string().trim().max(1000).default(''),
  parameters: supportBundleParametersSchema,
  service: z.enum(SUPPORT_BUNDLE_SERVICES).default('artifactory'),
});
export type SupportBundleBody = z.input<typeof supportBundleBodySchema>;

export const supportBundleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  service: z.string(),
  status: z.enum(SUPPORT_BUNDLE_STATUSES),
  create_date: z.string(),
  created_by: z.string(),
  node_id: z.string(),
  size: z.number().nullable(),
  error: z.string().nullable(),
  parameters: supportBundleParametersSchema,
});
export type SupportBundle = z.infer<typeof supportBundleSchema>;
export const supportBundlesAnswerSchema = z.object({ count: z.number().int(), bundles: z.array(supportBundleSchema) });
export type SupportBundlesAnswer = z.infer<typeof supportBundlesAnswerSchema>;

export const BACKUP_MESSAGES = {
  busy: 'A backup is being made already.',
  /** A backup folder of one node's disk: the others would not list it, nor would it outlive that node. */
  sharedFolder:
    'This database can be shared by several nodes: set ARCA_BACKUP_DIR on every node to one folder they all mount (NFS, a shared volume), so that every node lists the same backups and none is lost with one node’s disk.',
} as const;

/** One backup in the backup folder, from its manifest. */
export const backupSchema = z.object({
  name: z.string(),
  created: z.string(),
  engine: z.enum(['sqlite', 'postgres']),
  /** How the database was captured: SQLite's online backup, pg_dump, or a logical export of the tables. */
  method: z.enum(['sqlite-backup', 'pg_dump', 'export']),
  rows: z.number(),
  binaries: z.number(),
  bytes: z.number(),
  copied: z.number(),
  reused: z.number(),
  seconds: z.number(),
});
export type BackupEntry = z.infer<typeof backupSchema>;
export const backupsAnswerSchema = z.object({
  /** Where the backups are written (`ARCA_BACKUP_DIR`). */
  directory: z.string(),
  /** The schedule (`ARCA_BACKUP_SCHEDULE`), if any. */
  schedule: z.string().nullable(),
  /** The backup being made now, on whichever node (its progress where this node makes it), if any. */
  running: z
    .object({
      step: z.string(),
      done: z.number(),
      total: z.number(),
      startedAt: z.number(),
      node: z.string().optional(),
    })
    .nullable(),
  /** Why the newest run failed, if it did (whichever node ran it). */
  lastError: z.string().nullable(),
  /** Why no backup can be made with this configuration (several nodes and no shared folder), if so. */
  refused: z.string().nullable(),
  backups: z.array(backupSchema),
});
export type BackupsAnswer = z.infer<typeof backupsAnswerSchema>;
