import { z } from 'zod';

/*
 * Retention and archive (spec part 1 §2 "Retention (archive)", §3, §4; part 2 §7.8, §8.5, §9):
 * policies that move old artifacts to the cold store, their runs and restores, the archive's
 * search and its figures. Field names are Artifactory's (`cronExp`, `aqlQuery`,
 * `searchCriteriaForm`, `expirationTimeInMonths` …) so that its scripts read them.
 */

/** Spec part 2 §8.5, and the rules the form and the server share. */
export const RETENTION_MESSAGES = {
  saved: 'Policy saved successfully',
  saveFailed: "Error while save policy. Please check the product's logs.",
  fetchFailed: "Error while fetch policy. Please check the product's logs.",
  repositoriesFailed: "Error while fetch repositories list. Please check the product's logs.",
  previewFailed: 'Error while calculating policy preview.',
  paramsInvalid: 'Some params are invalid',
  checksumLength: 'Invalid Checksum Length',
  cronEmpty: "Schedule Execution can't be empty",
  cronInvalid: 'The cron expression is invalid',
  keyRequired: 'Policy name is required',
  keyFormat: 'Name must start with a letter and contain only letters, digits, dashes and underscores',
  keyExists: "A policy named '{key}' already exists.",
  keyMismatch: "The policy's name cannot be changed: '{key}' was asked for '{path}'.",
  notFound: "Policy '{key}' was not found.",
  criteriaMissing: 'A policy needs either search criteria or an AQL query.',
  repositoryMissing: 'Choose at least one repository to include.',
  repositoryUnknown: "Repository '{key}' does not exist or is not a local repository.",
  aqlDomain: 'An archive policy searches items: write items.find(…).',
  aqlOneWay: 'A policy written in AQL cannot go back to the form.',
  running: "The policy '{key}' is running: stop it or wait for its run to end.",
  notRunning: "The policy '{key}' is not running.",
  disabled: "The policy '{key}' is disabled: enable it to run it.",
  triggered: "The policy '{key}' was triggered.",
  stopping: "The policy '{key}' is stopping.",
  deleted: "The policy '{key}' was deleted.",
  restoreNothing: 'Choose at least one archived item to restore.',
  restoreDestination: 'Enter the destination as <repository>/<folder>.',
  restoreCentralRequired: 'Enter where the items are restored to.',
  restoreUnknown: "'{path}' is not in the archive.",
  restoreStarted: 'Restoring {count} item(s).',
  restoreExists: "A file already exists at '{path}'.",
} as const;

/** Spec part 1 §5 style: starts with a letter, then letters, digits, underscore, dash. */
export const RETENTION_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_-]*$/;
export const RETENTION_KEY_MAX = 64;

/** Spec part 2 §9: the units a duration (minutes) and an expiration (months) are entered in. */
export const DURATION_UNITS = { minutes: 1, hours: 60, days: 1440 } as const;
export const EXPIRATION_UNITS = { months: 1, years: 12 } as const;
/** Spec part 2 §9: a new policy expires nothing and runs without a time limit. */
export const POLICY_DEFAULTS = { expirationTimeInMonths: 0, durationInMinutes: 0 } as const;
/** Archive search answers at most this many items ('Showing first {n} matches found' beyond). */
export const RETENTION_SEARCH_LIMIT = 1000;
/** The items a preview answers per page, by default and at most. */
export const PREVIEW_PAGE = 50;
export const PREVIEW_PAGE_MAX = 500;

/** The units an age criterion is written in (`"6mo"` in AQL). */
export const AGE_UNITS = ['days', 'weeks', 'months', 'years'] as const;
export const ageSchema = z.object({ value: z.number().int().min(1).max(10_000), unit: z.enum(AGE_UNITS) });
export type Age = z.infer<typeof ageSchema>;

const patterns = z.array(z.string().trim().min(1).max(1024)).max(100).default([]);

/**
 * One side of the form: the repositories it names (any of them), and paths, names and properties
 * combined by `operator` — `and`: all of them, `or`: any of them.
 */
export const criteriaGroupSchema = z.object({
  operator: z.enum(['and', 'or']).default('and'),
  repositories: z.array(z.string().min(1).max(64)).max(500).default([]),
  paths: patterns,
  names: patterns,
  properties: z
    .array(z.object({ key: z.string().trim().min(1).max(255), value: z.string().max(4000).default('') }))
    .max(100)
    .default([]),
});
export type CriteriaGroup = z.infer<typeof criteriaGroupSchema>;

/** The form's criteria: what to include, what to exclude from it, and ages. */
export const searchCriteriaFormSchema = z.object({
  include: criteriaGroupSchema,
  exclude: criteriaGroupSchema.default({ operator: 'or', repositories: [], paths: [], names: [], properties: [] }),
  /** Deployed longer ago than this. */
  createdBefore: ageSchema.nullable().default(null),
  /** Not downloaded for this long (never downloaded: deployed longer ago than this). */
  downloadedBefore: ageSchema.nullable().default(null),
});
export type SearchCriteriaForm = z.infer<typeof searchCriteriaFormSchema>;

/** A policy as it is saved (PUT with its key, POST without) and previewed. */
export const archivePolicyBodySchema = z.object({
  key: z.string().trim().max(RETENTION_KEY_MAX),
  description: z.string().max(1000).default(''),
  cronExp: z.string().trim().max(200).default(''),
  enabled: z.boolean().default(true),
  expirationTimeInMonths: z.number().int().min(0).max(1200).default(POLICY_DEFAULTS.expirationTimeInMonths),
  durationInMinutes: z.number().int().min(0).max(525_600).default(POLICY_DEFAULTS.durationInMinutes),
  skipTrashcan: z.boolean().default(false),
  /** The query in AQL: a policy given one (and no form) is an AQL policy. */
  aqlQuery: z.string().max(20_000).nullable().optional(),
  searchCriteriaForm: searchCriteriaFormSchema.nullable().optional(),
});
export type ArchivePolicyBody = z.input<typeof archivePolicyBodySchema>;

/** Spec part 1 §4: an execution's states, and what the console shows for each. */
export const EXECUTION_STATES = [
  'IN_PROGRESS',
  'IN_PROGRESS_WITH_ERRORS',
  'PENDING',
  'COMPLETE',
  'COMPLETE_WITH_ERRORS',
  'STOPPED_BY_USER',
  'STOPPING',
  'FAILED',
  'TRIGGERED',
] as const;
export type ExecutionState = (typeof EXECUTION_STATES)[number];
export const EXECUTION_DISPLAY: Record<ExecutionState, string> = {
  IN_PROGRESS: 'RUNNING',
  IN_PROGRESS_WITH_ERRORS: 'RUNNING_WITH_ERRORS',
  PENDING: 'PENDING',
  COMPLETE: 'COMPLETE',
  COMPLETE_WITH_ERRORS: 'COMPLETE_WITH_ERRORS',
  STOPPED_BY_USER: 'STOPPED_BY_USER',
  STOPPING: 'STOPPING',
  FAILED: 'COMPLETE_WITH_ERRORS',
  TRIGGERED: 'TRIGGERED',
};
/** Spec part 1 §4: the display states of runs under way, and the states of finished ones. */
export const ACTIVE_DISPLAY_STATES = ['RUNNING', 'RUNNING_WITH_ERRORS'] as const;
export const FINISHED_STATES: readonly ExecutionState[] = [
  'COMPLETE',
  'COMPLETE_WITH_ERRORS',
  'STOPPED_BY_USER',
  'PENDING',
  'FAILED',
];
export const OPERATION_LABELS = { archive: 'Archiving', restore: 'Restoring' } as const;

export const executionSchema = z.object({
  migrationIdentifier: z.string(),
  operation: z.enum(['archive', 'restore']),
  label: z.enum(['Archiving', 'Restoring']),
  policyName: z.string().nullable(),
  state: z.enum(EXECUTION_STATES),
  displayState: z.string(),
  total: z.number(),
  done: z.number(),
  failed: z.number(),
  skipped: z.number(),
  bytes: z.number(),
  message: z.string().nullable(),
  startedAt: z.number(),
  endedAt: z.number().nullable(),
  startedBy: z.string(),
});
export type Execution = z.infer<typeof executionSchema>;
export const executionsAnswerSchema = z.object({ executions: z.array(executionSchema) });

export const executionItemSchema = z.object({
  repoKey: z.string(),
  path: z.string(),
  size: z.number(),
  state: z.enum(['pending', 'done', 'failed', 'skipped']),
  error: z.string().nullable(),
});
export type ExecutionItem = z.infer<typeof executionItemSchema>;

/** A policy as answered: its settings, how it was written, its next run and its last run. */
export const archivePolicySchema = z.object({
  key: z.string(),
  description: z.string(),
  cronExp: z.string(),
  enabled: z.boolean(),
  expirationTimeInMonths: z.number(),
  durationInMinutes: z.number(),
  skipTrashcan: z.boolean(),
  aqlQuery: z.string(),
  searchCriteriaForm: searchCriteriaFormSchema.nullable(),
  basis: z.enum(['form', 'aql']),
  nextExecutionTime: z.number().nullable(),
  lastRunStatus: executionSchema.nullable(),
  createdBy: z.string(),
  created: z.number(),
  modified: z.number(),
});
export type ArchivePolicy = z.infer<typeof archivePolicySchema>;

export const previewItemSchema = z.object({
  repoKey: z.string(),
  path: z.string(),
  name: z.string(),
  size: z.number(),
  created: z.number(),
  lastDownloaded: z.number().nullable(),
  downloadCount: z.number(),
});
export type PreviewItem = z.infer<typeof previewItemSchema>;
/** Spec: count and totalSize; beyond it, the matching items themselves, a page at a time. */
export const previewAnswerSchema = z.object({
  count: z.number(),
  totalSize: z.number(),
  aqlQuery: z.string(),
  offset: z.number(),
  limit: z.number(),
  items: z.array(previewItemSchema),
});
export type PreviewAnswer = z.infer<typeof previewAnswerSchema>;

/** `GET crontime`: the expression's next runs. */
export const cronTimeAnswerSchema = z.object({ valid: z.literal(true), nextRuns: z.array(z.number()) });

/** Spec part 1 §3: where restored items go. */
export const archiveRestoreBodySchema = z.object({
  restoreToOriginal: z.boolean().default(true),
  /** `<repository>/<folder>` for items whose repository no longer takes them (restoring to the original). */
  fallbackDestinationPath: z.string().trim().max(1024).optional().default(''),
  /** `<repository>/<folder>` every item goes to (not restoring to the original). */
  centralDestinationPath: z.string().trim().max(1024).optional().default(''),
  itemsToRestore: z.array(z.object({ repoKey: z.string().min(1), path: z.string().min(1) })).max(100_000),
});
export type ArchiveRestoreBody = z.input<typeof archiveRestoreBodySchema>;

/**
 * The archive search (spec part 2 §7.8: a plain-text body holding JSON): `name` with `*`
 * wildcards, repositories, a path prefix, and dates as `YYYY-MM-DD` or epoch milliseconds.
 */
export const archiveSearchSchema = z.object({
  name: z.string().max(255).optional().default(''),
  repositories: z.array(z.string()).max(500).optional().default([]),
  path: z.string().max(1024).optional().default(''),
  before: z.union([z.string(), z.number()]).nullable().optional(),
  after: z.union([z.string(), z.number()]).nullable().optional(),
  checksum: z.string().max(64).optional().default(''),
});
export type ArchiveSearch = z.input<typeof archiveSearchSchema>;

export const archivedItemSchema = z.object({
  name: z.string(),
  created: z.number(),
  repo: z.string(),
  path: z.string(),
  size: z.number(),
  sha256: z.string(),
  archived: z.number(),
  archivedBy: z.string(),
  policyName: z.string().nullable(),
  expires: z.number().nullable(),
});
export type ArchivedItem = z.infer<typeof archivedItemSchema>;
/** Spec: results and range; `limited` when more matched than were answered. */
export const archiveSearchAnswerSchema = z.object({
  results: z.array(archivedItemSchema),
  range: z.object({ from: z.number().nullable(), to: z.number().nullable() }),
  total: z.number(),
  limited: z.boolean(),
});
export type ArchiveSearchAnswer = z.infer<typeof archiveSearchAnswerSchema>;

/** Spec part 1 §2: the cold-storage tiles. */
export const binariesSummarySchema = z.object({
  binariesSize: z.number(),
  artifactsSize: z.number(),
  /** Per cent saved by storing identical contents once. */
  optimization: z.number(),
  binariesCount: z.number(),
  artifactsCount: z.number(),
  itemsCount: z.number(),
});
export type BinariesSummary = z.infer<typeof binariesSummarySchema>;
export const storageInfoSchema = z.object({
  binariesSummary: binariesSummarySchema,
  store: z.object({ type: z.enum(['file-system', 's3']), location: z.string() }),
  history: z.array(binariesSummarySchema.extend({ day: z.string() })),
});
export type StorageInfo = z.infer<typeof storageInfoSchema>;
