import { z } from 'zod';

/* ---------- The home page's widgets (spec part 2 §7: /ui/home/widget/*) ---------- */

/** `GET /ui/home/widget/artifactCount`: files in the repositories the caller may read. */
export const artifactCountSchema = z.object({ artifactCount: z.number().int() });
export type ArtifactCount = z.infer<typeof artifactCountSchema>;

const fileSchema = z.object({
  repoKey: z.string(),
  path: z.string(),
  name: z.string(),
  size: z.number().int(),
});

/** Days of the deployments chart. */
export const HOME_ACTIVITY_DAYS = 14;

/**
 * `GET /ui/home/widget/info`: the dashboard of what the caller may read — files and the space
 * they take, deployments per day, the newest deployments, the most downloaded files, the latest
 * build runs.
 */
export const homeWidgetInfoSchema = z.object({
  artifactCount: z.number().int(),
  artifactsSize: z.number(),
  repositoryCount: z.number().int(),
  /** Oldest first, one entry per day (UTC) of the last HOME_ACTIVITY_DAYS, today included. */
  deploymentsByDay: z.array(z.object({ day: z.string(), files: z.number().int(), bytes: z.number() })),
  recentDeployments: z.array(fileSchema.extend({ createdAt: z.string(), createdBy: z.string() })),
  mostDownloaded: z.array(fileSchema.extend({ downloads: z.number().int() })),
  latestBuilds: z.array(z.object({ name: z.string(), number: z.string(), started: z.string() })),
});
export type HomeWidgetInfo = z.infer<typeof homeWidgetInfoSchema>;
