import { useQuery } from '@tanstack/react-query';
import type { ArtifactBuilds, BuildDiff, BuildName, BuildRun, BuildRunInfo, ProjectBuilds } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { buildsKeys } from './keys';

/** Java's `2026-11-23T10:00:00.000+0000` as ISO 8601, for the date helpers. */
export const isoOf = (started: string) => started.replace(/([+-]\d\d)(\d\d)$/, '$1:$2');

/** Build names with their newest run; of one project when `projectKey` names one. */
export const useBuildNames = (projectKey?: string) =>
  useQuery({
    queryKey: buildsKeys.names(projectKey),
    queryFn: () => apiFetch<BuildName[]>('ui/builds/names', { query: { projectKey } }),
  });

/** Per project, the builds the caller may read in it. */
export const useProjectBuilds = () =>
  useQuery({
    queryKey: buildsKeys.projectInfo,
    queryFn: () => apiFetch<ProjectBuilds[]>('ui/builds/projectInfo'),
  });

export const useBuildHistory = (name: string) =>
  useQuery({
    queryKey: buildsKeys.history(name),
    queryFn: () => apiFetch<BuildRun[]>(`ui/builds/history/${encodeURIComponent(name)}`),
  });

export const useBuildInfo = (name: string, number: string) =>
  useQuery({
    queryKey: buildsKeys.info(name, number),
    queryFn: () => apiFetch<BuildRunInfo>('ui/builds/info', { query: { name, number } }),
  });

export const useBuildDiff = (name: string, number: string, other: string | undefined) =>
  useQuery({
    queryKey: buildsKeys.diff(name, number, other),
    queryFn: () => apiFetch<BuildDiff>('ui/builds/diff', { query: { name, number, other } }),
    enabled: Boolean(other),
  });

export const useArtifactBuilds = (repoKey: string, path: string) =>
  useQuery({
    queryKey: buildsKeys.artifact(repoKey, path),
    queryFn: () => apiFetch<ArtifactBuilds>('ui/artifactbuilds', { query: { repoKey, path } }),
  });

/** The published build names that build patterns cover (the permission form's preview; administrators). */
export const useBuildPatternsPreview = (includePatterns: string[], excludePatterns: string[], enabled: boolean) =>
  useQuery({
    queryKey: buildsKeys.patterns(includePatterns, excludePatterns),
    queryFn: () =>
      apiFetch<string[]>('ui/permissiontargets/buildPatterns', {
        method: 'POST',
        body: { includePatterns, excludePatterns },
        silent: true,
      }),
    enabled,
    placeholderData: (previous) => previous,
  });
