import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

/**
 * Release bundles (spec part 1 §2 `/bundles`, `distribution.main`; part 2 §7.13, §8): an immutable,
 * signed set of artifacts made once from builds, other bundles, an AQL query, a list of paths or
 * package versions. Its manifest (every path with its SHA-256) is kept in the `release-bundles`
 * repository and signed with a key pair of Keys Management; while a version exists its artifacts
 * cannot be deleted, moved or overwritten. Versions are promoted through environments (copies of
 * their artifacts into the environments' repositories) and distributed to paired deployments.
 * The calls follow JFrog's Release Lifecycle API v2 (`/lifecycle/api/v2/…`), snake_case as it is.
 */

/** The repository that keeps every version's manifest and signature (and names the permission resource). */
export const RELEASE_BUNDLES_REPO = 'release-bundles';

/** The project of bundles created without one. */
export const DEFAULT_BUNDLE_PROJECT = 'default';

export const RELEASE_BUNDLE_SOURCE_TYPES = ['artifacts', 'builds', 'release_bundles', 'aql', 'packages'] as const;
export type ReleaseBundleSourceType = (typeof RELEASE_BUNDLE_SOURCE_TYPES)[number];

export const RELEASE_BUNDLE_SOURCE_LABELS: Record<ReleaseBundleSourceType, string> = {
  artifacts: 'Artifacts',
  builds: 'Builds',
  release_bundles: 'Release bundles',
  aql: 'AQL query',
  packages: 'Packages',
};

/** The environments every deployment starts with, in their order. */
export const DEFAULT_ENVIRONMENTS = ['DEV', 'QA', 'PROD'] as const;

/** How many artifacts one version may hold. */
export const RELEASE_BUNDLE_MAX_ARTIFACTS = 100_000;

export const RELEASE_BUNDLE_MESSAGES = {
  nameFormat:
    'A release bundle name begins with a letter, a digit or an underscore and holds only letters, digits, underscores, periods and hyphens (up to 128).',
  versionFormat:
    'A release bundle version begins with a letter, a digit or an underscore and holds only letters, digits, underscores, periods and hyphens (up to 32).',
  /** {name} and {version} are replaced (409). */
  exists: "Release bundle '{name}' version '{version}' already exists.",
  /** {name} and {version} are replaced (404). */
  notFound: "Release bundle '{name}' version '{version}' was not found.",
  /** {name} is replaced (404). */
  nameNotFound: "Release bundle '{name}' was not found.",
  noSource: 'Give the sources of the bundle: artifacts, builds, release bundles, an AQL query or packages.',
  /** {type} is replaced. */
  sourceMissing: "A source of type '{type}' needs its '{type}' field.",
  empty: 'The sources hold no artifact: a release bundle needs at least one.',
  /** {count} is replaced. */
  tooMany: 'A release bundle holds at most {count} artifacts.',
  /** {path} is replaced (404). */
  artifactNotFound: "'{path}' was not found, or you may not read it.",
  /** {path} is replaced: an artifact source that names a folder. */
  artifactIsFolder: "'{path}' is a folder: name its files, or use an AQL query.",
  /** {path}, {expected}, {actual} are replaced (409). */
  checksumMismatch: "'{path}' has the SHA-256 {actual}, not {expected}.",
  /** {name} and {number} are replaced (404). */
  buildNotFound: "Build '{name}' number '{number}' was not found.",
  /** {name}, {version}, {type}, {repo} are replaced (404). */
  packageNotFound: "Package {type} '{name}' version '{version}' was not found in '{repo}'.",
  aqlItemsOnly: 'An AQL source finds items: items.find(…).',
  signingKeyMissing:
    'Name the key pair that signs the bundle: a GPG or RSA key pair of Keys Management (X-JFrog-Signing-Key-Name).',
  /** {name} is replaced (404). */
  signingKeyNotFound: "The key pair '{name}' does not exist.",
  /** {name} and {version} are replaced: deleting a version another version was made from needs nothing else. */
  deleted: "Release bundle '{name}' version '{version}' was deleted.",
  verified: 'The manifest matches its signature and every artifact is in place with its SHA-256.',
  tamperedManifest: 'The manifest does not match its signature: it was changed after it was signed.',
  manifestMissing: 'The manifest of this version is missing from the release bundles repository.',
  /** {count} is replaced. */
  artifactsChanged: '{count} artifact(s) are missing or no longer have the SHA-256 the manifest records.',
  /** {name} is replaced (404). */
  environmentNotFound: "Environment '{name}' does not exist.",
  /** {name} is replaced (409). */
  environmentExists: "Environment '{name}' already exists.",
  environmentFormat:
    'An environment name begins with a letter and holds only letters, digits, hyphens and underscores (up to 32).',
  /** {name} is replaced: an environment with no repository to promote into. */
  environmentEmpty: "Environment '{name}' has no repositories: assign repositories to it first.",
  /** {name} is replaced. */
  environmentInUse: "Environment '{name}' has promotions: it is kept while they are.",
  /** {key} is replaced. */
  notLocalRepository: "'{key}' is not a local repository.",
  /** {path} is replaced: a promotion that would overwrite other content (409). */
  promotionConflict: "'{path}' holds other content: promote with overwrite, or remove it first.",
  /** The spec's distribution rules (part 1 §8, part 2 §8.4). */
  offline: 'global offline mode enabled',
  noDistributePermission: 'You do not have distribute and deploy permissions.',
  /** {name} and {version} are replaced (409): an abort with nothing under way. */
  nothingToAbort: "No distribution of release bundle '{name}' version '{version}' is in progress.",
  /** {user} is replaced: the message of a target's distribution stopped on request. */
  aborted: 'Aborted by {user}.',
  noDistributionTargets:
    'No deployment is paired for distribution yet: pair a deployment under Administration > Platform Deployments first.',
  /** {rules} is replaced. */
  noTargetMatches: 'No paired deployment matches the distribution rules ({rules}).',
  /** {key} is replaced. */
  targetRepositoryMissing:
    "The target has no repository '{key}': create it there, or distribute with auto_create_missing_repositories.",
  /** {name} and {version} are replaced: what a target refuses when the manifest's name is another. */
  receivedMismatch: "The manifest is not the one of release bundle '{name}' version '{version}'.",
  /** {count} and {first} are replaced: artifacts a target is missing when the manifest arrives. */
  receivedMissing: '{count} artifact(s) of the manifest are not here with their SHA-256, the first {first}.',
} as const;

const BUNDLE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const BUNDLE_VERSION = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,31}$/;
const ENVIRONMENT_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

export const bundleNameSchema = z.string().trim().regex(BUNDLE_NAME, RELEASE_BUNDLE_MESSAGES.nameFormat);
export const bundleVersionSchema = z.string().trim().regex(BUNDLE_VERSION, RELEASE_BUNDLE_MESSAGES.versionFormat);
export const environmentNameSchema = z
  .string()
  .trim()
  .regex(ENVIRONMENT_NAME, RELEASE_BUNDLE_MESSAGES.environmentFormat);

const artifactSource = z.object({
  /** `<repository>/<path>` of a file. */
  path: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(1100),
  /** When given, the file must have it. */
  sha256: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/)
    .optional(),
});
const buildSource = z.object({
  build_name: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(256),
  build_number: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(256),
  build_started: z.string().optional(),
  build_repository: z.string().optional(),
  /** The build's dependencies too, not only its artifacts. */
  include_dependencies: z.boolean().default(false),
});
const bundleSource = z.object({
  release_bundle_name: bundleNameSchema,
  release_bundle_version: bundleVersionSchema,
  project_key: z.string().optional(),
  repository_key: z.string().optional(),
});
const packageSource = z.object({
  package_name: z.string().trim().min(1, ERROR_MESSAGES.mandatory),
  package_version: z.string().trim().min(1, ERROR_MESSAGES.mandatory),
  package_type: z.string().trim().min(1, ERROR_MESSAGES.mandatory),
  repository_key: z.string().trim().min(1, ERROR_MESSAGES.mandatory),
});

/** What a source of each type holds. */
export const bundleSourceSchema = z.object({
  artifacts: z.array(artifactSource).max(RELEASE_BUNDLE_MAX_ARTIFACTS).optional(),
  builds: z.array(buildSource).max(100).optional(),
  release_bundles: z.array(bundleSource).max(100).optional(),
  aql: z.string().trim().max(20_000).optional(),
  packages: z.array(packageSource).max(1000).optional(),
});
export type BundleSource = z.infer<typeof bundleSourceSchema>;

/** One of several sources (the newer `sources` array form: its type and its field side by side). */
const typedSource = bundleSourceSchema.extend({ source_type: z.enum(RELEASE_BUNDLE_SOURCE_TYPES) });

/**
 * `POST /lifecycle/api/v2/release_bundle` (header `X-JFrog-Signing-Key-Name`, or `signing_key` here):
 * one `source_type` with its `source`, or several `sources`.
 */
export const createReleaseBundleBodySchema = z
  .object({
    release_bundle_name: bundleNameSchema,
    release_bundle_version: bundleVersionSchema,
    description: z.string().max(2000).default(''),
    skip_docker_manifest_resolution: z.boolean().default(false),
    source_type: z.enum(RELEASE_BUNDLE_SOURCE_TYPES).optional(),
    source: bundleSourceSchema.optional(),
    sources: z.array(typedSource).max(20).optional(),
    signing_key: z.string().max(128).optional(),
  })
  .superRefine((body, ctx) => {
    const typed = body.sources ?? (body.source_type ? [{ ...body.source, source_type: body.source_type }] : []);
    if (!typed.length)
      ctx.addIssue({ code: 'custom', message: RELEASE_BUNDLE_MESSAGES.noSource, path: ['source_type'] });
    for (const source of typed) {
      const field = source[source.source_type];
      if (field === undefined || (Array.isArray(field) && field.length === 0) || field === '')
        ctx.addIssue({
          code: 'custom',
          message: RELEASE_BUNDLE_MESSAGES.sourceMissing.replaceAll('{type}', source.source_type),
          path: ['source', source.source_type],
        });
    }
  });
export type CreateReleaseBundleBody = z.infer<typeof createReleaseBundleBodySchema>;
/** A body's sources as one list, whichever form it used. */
export type TypedBundleSource = z.infer<typeof typedSource>;
export function typedSourcesOf(body: CreateReleaseBundleBody): TypedBundleSource[] {
  return body.sources ?? (body.source_type ? [{ ...body.source, source_type: body.source_type }] : []);
}

export const createReleaseBundleAnswerSchema = z.object({
  repository_key: z.string(),
  release_bundle_name: z.string(),
  release_bundle_version: z.string(),
  created: z.string(),
});

/** `?project=&repository_key=` that every Lifecycle call accepts. */
export const lifecycleQuerySchema = z.object({
  project: z.string().optional(),
  repository_key: z.string().optional(),
  async: z.string().optional(),
});

export const bundleVersionParamsSchema = z.object({ name: z.string(), version: z.string() });

/** A version as the records calls answer it. */
export const releaseBundleVersionSchema = z.object({
  status: z.enum(['COMPLETED', 'FAILED', 'PROCESSING']),
  repository_key: z.string(),
  release_bundle_name: z.string(),
  release_bundle_version: z.string(),
  project_key: z.string(),
  description: z.string(),
  source_type: z.string(),
  /** The sources as asked (builds, bundles, query …). */
  sources: z.array(z.record(z.string(), z.unknown())),
  service_id: z.string(),
  created_by: z.string(),
  created: z.string(),
  created_millis: z.number(),
  artifact_count: z.number(),
  total_size: z.number(),
  signing_key: z.string(),
  key_fingerprint: z.string(),
  /** `local`: made here; `received`: distributed from another deployment. */
  origin: z.enum(['local', 'received']),
  origin_deployment: z.string().nullable(),
  /** The environment of the latest successful promotion, or null. */
  current_environment: z.string().nullable(),
  /** Every environment a successful promotion reached. */
  environments: z.array(z.string()),
});
export type ReleaseBundleVersion = z.infer<typeof releaseBundleVersionSchema>;

/** `GET /lifecycle/api/v2/release_bundle/records/{name}`: the versions of one bundle, newest first. */
export const releaseBundleVersionsAnswerSchema = z.object({
  release_bundles: z.array(releaseBundleVersionSchema),
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
});

export const pagingQuerySchema = lifecycleQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/** `GET /lifecycle/api/v2/release_bundle/names`: every bundle with its latest version. */
export const releaseBundleNamesAnswerSchema = z.object({
  release_bundles: z.array(
    z.object({
      release_bundle_name: z.string(),
      project_key: z.string(),
      repository_key: z.string(),
      release_bundle_version_latest: z.string(),
      versions: z.number(),
      last_created: z.string(),
      /** The environments the latest version reached. */
      environments: z.array(z.string()),
    }),
  ),
  total: z.number(),
});

/** One artifact of a version (the content calls, the manifest). */
export const bundleArtifactSchema = z.object({
  repository_key: z.string(),
  path: z.string(),
  sha256: z.string(),
  size: z.number(),
  package_type: z.string(),
  /** The build or bundle it came from, or the kind of source. */
  source: z.string(),
});
export type BundleArtifact = z.infer<typeof bundleArtifactSchema>;

export const bundleContentAnswerSchema = z.object({
  artifacts: z.array(bundleArtifactSchema),
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
});

/** The signed manifest as stored: what the signature covers, byte for byte. */
export interface ReleaseBundleManifest {
  release_bundle_name: string;
  release_bundle_version: string;
  project_key: string;
  created: string;
  created_by: string;
  service_id: string;
  artifacts: { repository_key: string; path: string; sha256: string; size: number }[];
}

/** `GET …/records/{name}/{version}/verify`. */
export const verifyAnswerSchema = z.object({
  verified: z.boolean(),
  signature: z.enum(['valid', 'invalid', 'missing']),
  /** Artifacts missing or changed, each with why. */
  artifacts_failed: z.array(z.object({ path: z.string(), reason: z.string() })),
  artifacts_checked: z.number(),
  key_fingerprint: z.string(),
  message: z.string(),
});
export type VerifyAnswer = z.infer<typeof verifyAnswerSchema>;

/* ---------- Environments ---------- */

export const environmentSchema = z.object({
  name: z.string(),
  description: z.string(),
  position: z.number(),
  repositories: z.array(z.string()),
  created: z.string(),
  created_by: z.string(),
});
export type Environment = z.infer<typeof environmentSchema>;

export const environmentBodySchema = z.object({
  name: environmentNameSchema,
  description: z.string().max(500).default(''),
  repositories: z.array(z.string().trim().min(1).max(64)).max(200).default([]),
});
export const environmentUpdateSchema = environmentBodySchema.omit({ name: true });

/* ---------- Promotion ---------- */

export const PROMOTION_OPERATIONS = ['copy', 'move'] as const;

/** `POST /lifecycle/api/v2/promotion/records/{name}/{version}`. */
export const promotionBodySchema = z.object({
  environment: z.string().trim().min(1, ERROR_MESSAGES.mandatory),
  /** The environment's repositories to promote into (default all of them). */
  included_repository_keys: z.array(z.string()).default([]),
  excluded_repository_keys: z.array(z.string()).default([]),
  overwrite_existing_artifacts: z.boolean().default(false),
});
export const promotionQuerySchema = lifecycleQuerySchema.extend({
  operation: z.enum(PROMOTION_OPERATIONS).default('copy'),
});

export const promotionRecordSchema = z.object({
  status: z.enum(['COMPLETED', 'FAILED']),
  repository_key: z.string(),
  release_bundle_name: z.string(),
  release_bundle_version: z.string(),
  environment: z.string(),
  operation: z.enum(PROMOTION_OPERATIONS),
  included_repository_keys: z.array(z.string()),
  service_id: z.string(),
  created_by: z.string(),
  created: z.string(),
  created_millis: z.number(),
  artifact_count: z.number(),
  messages: z.array(z.object({ text: z.string() })),
});
export type PromotionRecord = z.infer<typeof promotionRecordSchema>;

export const promotionAnswerSchema = z.object({
  release_bundle_name: z.string(),
  release_bundle_version: z.string(),
  environment: z.string(),
  included_repository_keys: z.array(z.string()),
  excluded_repository_keys: z.array(z.string()),
  created: z.string(),
  created_millis: z.number(),
});

export const promotionRecordsAnswerSchema = z.object({
  promotions: z.array(promotionRecordSchema),
  total: z.number(),
});

/* ---------- Distribution ---------- */

/** `POST /lifecycle/api/v2/distribution/distribute/{name}/{version}` (and `…/remote_delete/…`). */
export const distributeBodySchema = z.object({
  /** Which paired deployments: their names, with `*` and `?` wildcards; `*` for all. */
  distribution_rules: z
    .array(z.object({ site_name: z.string().max(200).default('*') }))
    .min(1)
    .default([{ site_name: '*' }]),
  auto_create_missing_repositories: z.coerce.boolean().default(false),
  dry_run: z.boolean().default(false),
});

export const DISTRIBUTION_STATUSES = ['IN_PROGRESS', 'COMPLETED', 'ABORTED', 'FAILED'] as const;

/** `PUT /lifecycle/api/v2/distribution/abort/{name}/{version}`: the targets whose distribution stopped. */
export const abortedTargetSchema = z.object({
  name: z.string(),
  service_id: z.string(),
  type: z.literal('artifactory'),
});
export type AbortedTarget = z.infer<typeof abortedTargetSchema>;

/** One target's distribution (or deletion) of a version, with its progress. */
export const distributionTrackerSchema = z.object({
  distribution_tracker_id: z.string(),
  type: z.enum(['distribute', 'delete']),
  status: z.enum(DISTRIBUTION_STATUSES),
  target: z.string(),
  deployment_id: z.string(),
  files_total: z.number(),
  files_done: z.number(),
  files_sent: z.number(),
  bytes_sent: z.number(),
  message: z.string(),
  created: z.string(),
  created_by: z.string(),
  finished: z.string().nullable(),
});
export type DistributionTracker = z.infer<typeof distributionTrackerSchema>;

/** What a source sends a target once the files are there: the manifest as signed, with its signature. */
export const receiveBundleBodySchema = z.object({
  manifest: z.string().max(64 * 1024 * 1024),
  signature: z.string().max(20_000),
  public_key: z.string().max(20_000),
  key_fingerprint: z.string().max(200),
  signing_key: z.string().max(128),
  description: z.string().max(2000).default(''),
  source_type: z.string().max(32),
  sources: z.array(z.unknown()).default([]),
  /** Where it came from: the source deployment's address or name. */
  origin: z.string().max(1024),
});
export type ReceiveBundleBody = z.infer<typeof receiveBundleBodySchema>;
