import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

export const ARTIFACT_MESSAGES = {
  /** A virtual repository's indexes asked while another worker or node merges them (503, Retry-After). */
  merging: 'The indexes of this virtual repository are being merged after a change of its members; ask again shortly.',
  /** {key}, {url}, {reason} are replaced: a remote repository whose upstream cannot answer (502). */
  upstreamUnavailable: "The remote repository '{key}' could not get an answer from its upstream {url}: {reason}",
  notFound: 'The object you were looking for could not be found.',
  /** {path} (repository and path) and {holder} (what holds it: 'release bundle app 1.0.0') are replaced (409). */
  held: "'{path}' is part of {holder} and cannot be deleted, moved or overwritten.",
  /** {key} and {holder} are replaced: a repository holding artifacts something holds (409). */
  repositoryHeld: "The repository '{key}' holds artifacts of {holder}: delete that first.",
  folderDownloadBusy: 'There are too many folder download requests currently running, try again later.',
  folderDownloadTooLarge: 'The folder holds more than {files} files or {size}: download parts of it.',
  folderDownloadType: "archiveType is one of 'zip', 'tar', 'tar.gz' and 'tgz'.",
  pathTraversal: "The path may not contain '.' or '..' segments, encoded separators or encoded dots.",
  pathNul: 'The path may not contain control characters.',
  pathTooLong: 'The path is longer than 1024 characters.',
  nameTooLong: 'A file or folder name is longer than 255 characters.',
  pathEmpty: 'A file path is required.',
  checksumMismatch:
    "Checksum mismatch: {header} says '{expected}' but the content's is '{actual}'. Nothing was stored.",
  checksumDeployNotFound: 'Checksum deploy failed: no stored binary has the given checksum.',
  checksumDeployNeedsChecksum: 'Checksum deploy needs an X-Checksum-Sha256 or X-Checksum-Sha1 header.',
  virtualNoTarget: "Virtual repository '{key}' has no default deployment repository.",
  remoteDeploy: "Cannot deploy to remote repository '{key}'.",
  patternRefused: "The path '{path}' is not accepted by the include and exclude patterns of repository '{key}'.",
  folderIsFile: "'{path}' is a file, so nothing can be stored under it.",
  fileIsFolder: "'{path}' is a folder and cannot be replaced by a file.",
  uploadIncomplete: 'The upload ended before all of its content arrived. Nothing was stored.',
  targetExists: "'{path}' already exists in '{key}'.",
  copyIntoItself: 'A folder cannot be copied or moved into itself.',
  packageTypeDiffers:
    "'{key}' holds {targetType} packages, not {sourceType}: items only go to a repository of the same package type.",
  targetsExist: '{count} file(s) already exist at the target: {paths}. Choose to overwrite or skip them.',
  toRequired: "The 'to' parameter is required, as /{repoKey}/{path}.",
  notInTrash: 'Only items in the trash can can be restored.',
  upstreamFailed: 'The upstream of remote repository {key} did not answer with the file.',
  propertyKey: 'A property key may contain letters, digits, dots, dashes, underscores and colons.',
  propertyKeyReserved: "Property keys starting with 'trash.' are reserved for the trash can.",
  propertyValue: 'A property value may not contain control characters and is at most 4000 characters long.',
  notText: 'This file is not a text file that can be viewed.',
  notArchive: 'This file is not an archive that can be browsed.',
  archiveTooLarge: 'This archive is too large to browse: it expands past the viewing limit.',
  changedMeanwhile: "'{path}' changed while this request was being handled. Nothing was stored; try again.",
} as const;

/** Most bytes of a text file the console shows in its viewer. */
export const VIEW_MAX_BYTES = 1024 * 1024;

export const checksumsSchema = z.object({ sha1: z.string(), md5: z.string(), sha256: z.string() });

/** Answer of a deploy: Artifactory's ItemCreated body. */
export const itemCreatedSchema = z.object({
  repo: z.string(),
  path: z.string(),
  created: z.string(),
  createdBy: z.string(),
  downloadUri: z.string(),
  mimeType: z.string(),
  size: z.string(),
  checksums: checksumsSchema,
  originalChecksums: checksumsSchema,
  uri: z.string(),
});
export type ItemCreated = z.infer<typeof itemCreatedSchema>;

/** Properties: each key holds a list of values. */
export const propertiesSchema = z.record(z.string(), z.array(z.string()));
export type Properties = z.infer<typeof propertiesSchema>;

export const PROPERTY_KEY_PATTERN = /^[A-Za-z0-9._:-]{1,255}$/;

/** A node of the tree browser. */
export const treeNodeSchema = z.object({
  name: z.string(),
  path: z.string(),
  type: z.enum(['folder', 'file', 'archive']),
  size: z.number().int(),
  lastModified: z.string(),
});
export type TreeNode = z.infer<typeof treeNodeSchema>;

export const treeChildrenQuerySchema = z.object({
  repoKey: z.string().min(1),
  path: z.string().default(''),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

export const treeChildrenSchema = z.object({
  items: z.array(treeNodeSchema),
  total: z.number().int(),
  offset: z.number().int(),
});
export type TreeChildren = z.infer<typeof treeChildrenSchema>;

/** The kinds of repository node in the tree (spec part 1 §2). */
export const REPO_NODE_KINDS = ['local', 'remote', 'virtual', 'cached', 'trashcan'] as const;

/** Lists limited to one project's repositories ('default' or absent: all). */
export const projectScopeSchema = z.object({ projectKey: z.string().max(128).optional() });

export const treeReposQuerySchema = projectScopeSchema.extend({
  repo_type: z.string().optional(),
  repo_key: z.string().optional(),
  pkg_type: z.string().optional(),
});

export const treeRepoSchema = z.object({
  repoKey: z.string(),
  repoType: z.enum(REPO_NODE_KINDS),
  pkgType: z.string(),
  description: z.string(),
  hasChildren: z.boolean(),
});
export type TreeRepo = z.infer<typeof treeRepoSchema>;

/** The General tab of the tree browser. */
export const itemInfoSchema = z.object({
  repoKey: z.string(),
  path: z.string(),
  name: z.string(),
  type: z.enum(['repository', 'folder', 'file', 'archive']),
  repoType: z.enum(REPO_NODE_KINDS),
  pkgType: z.string(),
  size: z.number().int(),
  created: z.string().nullable(),
  createdBy: z.string().nullable(),
  lastModified: z.string().nullable(),
  modifiedBy: z.string().nullable(),
  mimeType: z.string().nullable(),
  checksums: checksumsSchema.nullable(),
  downloadUri: z.string().nullable(),
  /** For folders and repositories: files and folders below, and their total size. */
  files: z.number().int().nullable(),
  folders: z.number().int().nullable(),
  trash: z
    .object({ originalRepository: z.string(), originalPath: z.string(), deletedBy: z.string(), deletedAt: z.string() })
    .nullable(),
});
export type ItemInfo = z.infer<typeof itemInfoSchema>;

export const itemRefSchema = z.object({ repoKey: z.string().min(1), path: z.string().default('') });

/**
 * What the deploy dialog sends with a file: properties as matrix parameters (`;key=a,b;other=c`),
 * set on what it deploys.
 */
export const deployQuerySchema = itemRefSchema.extend({
  properties: z
    .string()
    .max(64 * 1024)
    .default(''),
});

/** `PUT ui/artifact/upload/bundle`: an archive whose files land under `path`, with properties. */
export const bundleQuerySchema = deployQuerySchema.extend({ name: z.string().min(1).max(255) });
/** What a bundle deploy stored: the repository, the folder, the files (paths in the repository). */
export const bundleDeployedSchema = z.object({ repo: z.string(), path: z.string(), files: z.array(z.string()) });
export type BundleDeployed = z.infer<typeof bundleDeployedSchema>;
export type ItemRef = z.infer<typeof itemRefSchema>;

/**
 * What the caller may do on one repository path, decided by the server's authorisation function
 * on what each action would really touch (a virtual deploy: its default deployment repository;
 * a trash item: the place it was deleted from). `reasons` says why an action is refused.
 */
export const ITEM_ACTIONS = ['read', 'deploy', 'annotate', 'delete', 'copy', 'move', 'restore', 'emptyTrash'] as const;
export type ItemActionName = (typeof ITEM_ACTIONS)[number];
export const effectiveActionsSchema = z.object({
  allowed: z.array(z.enum(ITEM_ACTIONS)),
  reasons: z.record(z.string(), z.string()),
});
export type EffectiveActions = z.infer<typeof effectiveActionsSchema>;

/** A repository a copy or move of an item may go to. */
export const copyTargetSchema = z.object({ repoKey: z.string(), pkgType: z.string(), description: z.string() });
export type CopyTarget = z.infer<typeof copyTargetSchema>;

/** What a copy or move does with a file that already exists at the target. */
export const CONFLICT_POLICIES = ['fail', 'overwrite', 'skip'] as const;
export type ConflictPolicy = (typeof CONFLICT_POLICIES)[number];

export const copyMoveBodySchema = z.object({
  repoKey: z.string().min(1),
  path: z.string().min(1, ARTIFACT_MESSAGES.pathEmpty),
  targetRepoKey: z.string().min(1, ERROR_MESSAGES.mandatory),
  targetPath: z.string().default(''),
  /** Answer what would happen, change nothing. */
  dryRun: z.boolean().default(false),
  conflicts: z.enum(CONFLICT_POLICIES).default('fail'),
});
export type CopyMoveBody = z.input<typeof copyMoveBodySchema>;

/** Most paths a copy/move report lists per kind (the counts are always complete). */
export const COPY_REPORT_PATHS = 50;

/** What a copy or move did (or, in a dry run, would do). */
export const copyMoveReportSchema = z.object({
  repoKey: z.string(),
  path: z.string(),
  dryRun: z.boolean(),
  /** Files copied or moved, overwritten ones included. */
  files: z.number().int(),
  overwritten: z.number().int(),
  skipped: z.number().int(),
  /** Files that exist at the target (first COPY_REPORT_PATHS, target paths). */
  conflicts: z.array(z.string()),
  conflictCount: z.number().int(),
});
export type CopyMoveReport = z.infer<typeof copyMoveReportSchema>;

export const restoreBodySchema = z.object({
  path: z.string().min(1),
  targetRepoKey: z.string().optional(),
  targetPath: z.string().optional(),
});

export const propertiesBodySchema = z.object({
  repoKey: z.string().min(1),
  path: z.string().default(''),
  key: z.string().regex(PROPERTY_KEY_PATTERN, ARTIFACT_MESSAGES.propertyKey),
  values: z.array(z.string().max(4000)).min(1, ERROR_MESSAGES.mandatory),
  recursive: z.boolean().default(false),
});
export type PropertiesBody = z.input<typeof propertiesBodySchema>;

export const viewSourceSchema = z.object({ fileContent: z.string(), truncated: z.boolean() });

export const archiveEntrySchema = z.object({ path: z.string(), size: z.number().int(), folder: z.boolean() });
export type ArchiveEntry = z.infer<typeof archiveEntrySchema>;

export const archiveViewSourceBodySchema = z.object({
  archivePath: z.string().min(1),
  repoKey: z.string().min(1),
  sourcePath: z.string().min(1),
});

/** Storage summary of the administration console. */
export const storageSummarySchema = z.object({
  binariesCount: z.number().int(),
  binariesSize: z.number().int(),
  artifactsCount: z.number().int(),
  artifactsSize: z.number().int(),
  optimization: z.number(),
  itemsCount: z.number().int(),
  repositories: z.array(
    z.object({
      repoKey: z.string(),
      repoType: z.string(),
      packageType: z.string(),
      filesCount: z.number().int(),
      foldersCount: z.number().int(),
      usedSpace: z.number().int(),
      percentage: z.number(),
    }),
  ),
});
export type StorageSummary = z.infer<typeof storageSummarySchema>;

/** Periods the storage growth chart offers, in days. */
export const STORAGE_GROWTH_PERIODS = [7, 30, 90, 365] as const;
export const storageGrowthQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(3650).default(30),
  projectKey: z.string().max(128).optional(),
});
/** One day of the daily samples: the totals and each repository's bytes. */
export const storageGrowthSchema = z.object({
  days: z.array(
    z.object({
      day: z.string(),
      files: z.number(),
      size: z.number(),
      repositories: z.record(z.string(), z.number()),
    }),
  ),
});
export type StorageGrowth = z.infer<typeof storageGrowthSchema>;

export const largestFoldersQuerySchema = z.object({
  repoKey: z.string().min(1, 'Choose a repository.').max(128),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
/** A repository's folders holding the most bytes (everything below each, at any depth). */
export const largestFoldersSchema = z.object({
  repoKey: z.string(),
  folders: z.array(z.object({ path: z.string(), size: z.number(), files: z.number() })),
});
export type LargestFolders = z.infer<typeof largestFoldersSchema>;

export const setMeUpSchema = z.object({ baseUrl: z.string() });
