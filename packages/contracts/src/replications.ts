import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

/**
 * Replications (spec part 1 §2 mission_control/replications; part 2 §7.6, §8.6, §9): a local
 * repository of this deployment pushed to a repository of a registered deployment, or pulled from
 * one, on a cron schedule and/or on every change. Only what differs moves (SHA-256 compared);
 * content the receiving side holds already is deployed by checksum, its bytes not sent.
 */
export const REPLICATION_STRATEGIES = ['push', 'pull'] as const;
export type ReplicationStrategy = (typeof REPLICATION_STRATEGIES)[number];

export const REPLICATION_RUN_STATUSES = ['running', 'success', 'partial', 'failed'] as const;
export type ReplicationRunStatus = (typeof REPLICATION_RUN_STATUSES)[number];

export const REPLICATION_TRIGGERS = ['schedule', 'event', 'manual'] as const;

/** The history's default range (spec part 2 §9): a week. */
export const REPLICATION_DEFAULT_RANGE_DAYS = 7;

export const REPLICATION_MESSAGES = {
  fetchFailed: 'Unable to fetch replications data',
  rangeFailed: 'Could not fetch data for the selected range',
  overviewFailed: 'Unable to fetch Storage, Replication, or Federation data',
  keyInvalid: 'Only letters, digits, dashes, underscores and periods, 1 to 64 characters.',
  /** {key} is replaced. */
  keyTaken: "A replication named '{key}' exists already.",
  notFound: 'No such replication.',
  notLocal: 'Replications take a local repository of this deployment.',
  unknownDeployment: 'The deployment is not registered.',
  noTrigger: 'Give a schedule, replicate on every change, or both.',
  eventPull: 'A pull replication runs on a schedule: changes on the other deployment are not seen here.',
  remoteRepo: 'The other deployment has no local repository of that name.',
  started: 'The replication started.',
  running: 'The replication is running already.',
  saved: 'The replication was saved.',
  deleted: 'The replication was deleted.',
} as const;

const patterns = z.array(z.string().trim().min(1).max(300)).max(50).default([]);

export const replicationBodySchema = z
  .object({
    key: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, REPLICATION_MESSAGES.keyInvalid),
    repo_key: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(64),
    deployment_id: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(64),
    remote_repo_key: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(64),
    strategy: z.enum(REPLICATION_STRATEGIES),
    /** Cron (seconds first, as the other schedules); empty: no schedule. */
    cron: z.string().trim().max(120).default(''),
    event_based: z.boolean().default(false),
    enabled: z.boolean().default(true),
    include_patterns: patterns,
    exclude_patterns: patterns,
    sync_deletes: z.boolean().default(false),
    sync_properties: z.boolean().default(true),
  })
  .superRefine((body, ctx) => {
    if (!body.cron && !body.event_based)
      ctx.addIssue({ code: 'custom', path: ['cron'], message: REPLICATION_MESSAGES.noTrigger });
    if (body.event_based && body.strategy === 'pull')
      ctx.addIssue({ code: 'custom', path: ['event_based'], message: REPLICATION_MESSAGES.eventPull });
  });
export type ReplicationBody = z.input<typeof replicationBodySchema>;

export const replicationRunSchema = z.object({
  id: z.string(),
  replication_key: z.string(),
  repo_key: z.string(),
  deployment: z.string(),
  remote_repo_key: z.string(),
  strategy: z.enum(REPLICATION_STRATEGIES),
  trigger: z.enum(REPLICATION_TRIGGERS),
  status: z.enum(REPLICATION_RUN_STATUSES),
  started: z.string(),
  finished: z.string().nullable(),
  files_total: z.number(),
  files_done: z.number(),
  files_transferred: z.number(),
  files_deduplicated: z.number(),
  files_properties: z.number(),
  files_deleted: z.number(),
  files_failed: z.number(),
  bytes_transferred: z.number(),
});
export type ReplicationRun = z.infer<typeof replicationRunSchema>;

export const replicationSchema = z.object({
  key: z.string(),
  repo_key: z.string(),
  deployment_id: z.string(),
  deployment: z.string(),
  remote_repo_key: z.string(),
  strategy: z.enum(REPLICATION_STRATEGIES),
  cron: z.string(),
  event_based: z.boolean(),
  enabled: z.boolean(),
  include_patterns: z.array(z.string()),
  exclude_patterns: z.array(z.string()),
  sync_deletes: z.boolean(),
  sync_properties: z.boolean(),
  next_run: z.string().nullable(),
  last_run: replicationRunSchema.nullable(),
  created: z.string(),
});
export type Replication = z.infer<typeof replicationSchema>;

export const replicationRunsQuerySchema = z.object({
  from: z.coerce.number().optional(),
  to: z.coerce.number().optional(),
  status: z.string().max(200).optional(),
  repo: z.string().max(2000).optional(),
  deployment: z.string().max(2000).optional(),
  strategy: z.enum(REPLICATION_STRATEGIES).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

/** The most contents one `POST /artifactory/api/replication/contents` asks about. */
export const HELD_CONTENTS_MAX = 10_000;

/**
 * `POST /artifactory/api/replication/contents`: which of these contents (by SHA-256) the deployment
 * holds — what another deployment asks before it sends files, so that each is sent by checksum or
 * with its bytes at once, without a probe per file.
 */
export const heldContentsBodySchema = z.object({
  sha256: z
    .array(z.string().regex(/^[0-9a-f]{64}$/, 'A SHA-256 is 64 lowercase hexadecimal digits.'))
    .max(HELD_CONTENTS_MAX),
});
export const heldContentsAnswerSchema = z.object({ held: z.array(z.string()) });
