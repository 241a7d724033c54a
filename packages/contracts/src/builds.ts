import { z } from 'zod';

/**
 * Build info as JFrog's CLI and CI plug-ins send it (`PUT /api/build`). Arca reads the fields
 * named here; every other field is kept as sent and answered back.
 */
export const buildFileSchema = z.looseObject({
  id: z.string().optional(),
  name: z.string().optional(),
  type: z.string().optional(),
  path: z.string().optional(),
  sha1: z.string().optional(),
  sha256: z.string().optional(),
  md5: z.string().optional(),
  /** Dependencies only: the scopes they were used in (compile, runtime, test…). */
  scopes: z.array(z.string()).optional(),
});

export type BuildFile = z.infer<typeof buildFileSchema>;

export const buildModuleSchema = z.looseObject({
  id: z.string().optional(),
  type: z.string().optional(),
  artifacts: z.array(buildFileSchema).optional(),
  dependencies: z.array(buildFileSchema).optional(),
});

export const buildStatusSchema = z.looseObject({
  status: z.string(),
  comment: z.string().optional(),
  repository: z.string().optional(),
  timestamp: z.string().optional(),
  user: z.string().optional(),
  ciUser: z.string().optional(),
});

export const buildInfoSchema = z.looseObject({
  version: z.string().optional(),
  name: z.string("Build info needs a 'name'.").trim().min(1, "Build info needs a 'name'."),
  number: z.union([z.string().min(1), z.number()], "Build info needs a 'number'."),
  /** Java's `2026-11-23T10:00:00.000+0000` or ISO 8601. */
  started: z.string("Build info needs 'started'."),
  durationMillis: z.number().optional(),
  principal: z.string().optional(),
  url: z.string().optional(),
  agent: z.looseObject({ name: z.string().optional(), version: z.string().optional() }).optional(),
  buildAgent: z.looseObject({ name: z.string().optional(), version: z.string().optional() }).optional(),
  vcs: z
    .array(
      z.looseObject({
        url: z.string().optional(),
        revision: z.string().optional(),
        branch: z.string().optional(),
        message: z.string().optional(),
      }),
    )
    .optional(),
  issues: z
    .looseObject({
      tracker: z.looseObject({ name: z.string().optional(), version: z.string().optional() }).optional(),
      affectedIssues: z
        .array(
          z.looseObject({
            key: z.string(),
            url: z.string().optional(),
            summary: z.string().optional(),
            aggregated: z.boolean().optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  modules: z.array(buildModuleSchema).optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
  statuses: z.array(buildStatusSchema).optional(),
  project: z.string().optional(),
});

/** A build-info document as the publish call takes it (validated: a name, a number, a start). */
export type PublishedBuildInfo = z.infer<typeof buildInfoSchema>;

export const buildListAnswerSchema = z.object({
  builds: z.array(z.object({ uri: z.string(), lastStarted: z.string() })),
  uri: z.string(),
});

export const buildRunsAnswerSchema = z.object({
  buildsNumbers: z.array(z.object({ uri: z.string(), started: z.string() })),
  uri: z.string(),
});

const change = <T extends z.ZodType>(item: T) =>
  z.object({ new: z.array(item), updated: z.array(item), unchanged: z.array(item), removed: z.array(item) });

/** `GET /api/build/{name}/{number}?diff={other}`: what changed from the other run to this one. */
export const buildDiffSchema = z.object({
  artifacts: change(buildFileSchema),
  dependencies: change(buildFileSchema),
  properties: change(z.object({ key: z.string(), value: z.unknown() })),
});

export type BuildDiff = z.infer<typeof buildDiffSchema>;

export const buildRunAnswerSchema = z.object({ buildInfo: buildInfoSchema, uri: z.string() });

export const buildPromotionSchema = z.object({
  status: z.string().optional(),
  comment: z.string().optional(),
  ciUser: z.string().optional(),
  timestamp: z.string().optional(),
  dryRun: z.boolean().optional(),
  sourceRepo: z.string().optional(),
  /** Without a target, the run's status changes and properties are set where the files are. */
  targetRepo: z.string().min(1).optional(),
  copy: z.boolean().optional(),
  artifacts: z.boolean().optional(),
  dependencies: z.boolean().optional(),
  failFast: z.boolean().optional(),
  /** Dependencies are promoted when they are in one of these scopes (all, when absent). */
  scopes: z.array(z.string()).optional(),
  /** Set on each promoted file, in the target when there is one. */
  properties: z.record(z.string(), z.array(z.string())).optional(),
});

export const buildPromotionAnswerSchema = z.object({
  messages: z.array(z.object({ level: z.enum(['INFO', 'WARNING', 'ERROR']), message: z.string() })),
});

/** `GET /ui/builds/names`: a build the caller may read, with its newest run. */
export const buildNameSchema = z.object({
  name: z.string(),
  lastNumber: z.string(),
  lastStarted: z.string(),
  runs: z.number(),
  project: z.string().nullable(),
});
export type BuildName = z.infer<typeof buildNameSchema>;

/** `GET /ui/builds/projectInfo`: per project, the builds the caller may read in it. */
export const projectBuildsSchema = z.object({
  projectKey: z.string(),
  builds: z.number(),
  runs: z.number(),
  lastStarted: z.string(),
});
export type ProjectBuilds = z.infer<typeof projectBuildsSchema>;

/** A promotion of a run as the console shows it; `repository` is absent when only the status changed. */
export const buildRunStatusSchema = z.object({
  status: z.string(),
  comment: z.string(),
  repository: z.string().optional(),
  user: z.string(),
  ciUser: z.string(),
  timestamp: z.string(),
});
export type BuildStatus = z.infer<typeof buildRunStatusSchema>;

/** `GET /ui/builds/history/{name}`: the build's runs, newest first. */
export const buildRunSchema = z.object({
  number: z.string(),
  started: z.string(),
  createdBy: z.string(),
  statuses: z.array(buildRunStatusSchema),
});
export type BuildRun = z.infer<typeof buildRunSchema>;

/** A run's file with where a readable copy of it is stored (null when none is, or none the caller may read). */
export const buildFileRowSchema = z.object({
  name: z.string(),
  type: z.string(),
  sha1: z.string(),
  scopes: z.array(z.string()).optional(),
  location: z.object({ repoKey: z.string(), path: z.string() }).nullable(),
});
export type BuildFileRow = z.infer<typeof buildFileRowSchema>;

/** `GET /ui/builds/info`: one run's build info as published, and its modules' files located. */
export const buildRunInfoSchema = z.object({
  buildInfo: buildInfoSchema,
  modules: z.array(
    z.object({ id: z.string(), artifacts: z.array(buildFileRowSchema), dependencies: z.array(buildFileRowSchema) }),
  ),
});
export type BuildRunInfo = z.infer<typeof buildRunInfoSchema>;

const buildReferenceSchema = z.object({
  name: z.string(),
  number: z.string(),
  started: z.string(),
  moduleID: z.string(),
});

/** `GET /ui/artifactbuilds`: the runs that produced a file and those that used it. */
export const artifactBuildsSchema = z.object({
  producedBy: z.array(buildReferenceSchema),
  usedBy: z.array(buildReferenceSchema),
});
export type ArtifactBuilds = z.infer<typeof artifactBuildsSchema>;
