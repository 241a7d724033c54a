import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

export const buildsKey = ['builds'] as const;

/** Java's `2026-11-23T10:00:00.000+0000` as ISO 8601, for the date helpers. */
export const isoOf = (started: string) => started.replace(/([+-]\d\d)(\d\d)$/, '$1:$2');

export interface BuildName {
  name: string;
  lastNumber: string;
  lastStarted: string;
  runs: number;
  project: string | null;
}

export interface BuildStatus {
  status: string;
  comment: string;
  /** Absent when the promotion only changed the status. */
  repository?: string;
  user: string;
  ciUser: string;
  timestamp: string;
}

export interface BuildRun {
  number: string;
  started: string;
  createdBy: string;
  statuses: BuildStatus[];
}

export interface BuildFileRow {
  name: string;
  type: string;
  sha1: string;
  scopes?: string[];
  /** Where a readable copy of it is stored; null when none is (or none the caller may read). */
  location: { repoKey: string; path: string } | null;
}

export interface BuildRunInfo {
  buildInfo: Record<string, unknown> & {
    name: string;
    number: string;
    started: string;
    durationMillis?: number;
    agent?: { name?: string; version?: string };
    buildAgent?: { name?: string; version?: string };
    principal?: string;
    url?: string;
    vcs?: { url?: string; revision?: string; branch?: string; message?: string }[];
    properties?: Record<string, string>;
    statuses?: BuildStatus[];
    issues?: {
      tracker?: { name?: string; version?: string };
      affectedIssues?: { key: string; url?: string; summary?: string; aggregated?: boolean }[];
    };
  };
  modules: { id: string; artifacts: BuildFileRow[]; dependencies: BuildFileRow[] }[];
}

type Change<T> = { new: T[]; updated: T[]; unchanged: T[]; removed: T[] };
export interface BuildDiff {
  artifacts: Change<{ name?: string; sha1?: string }>;
  dependencies: Change<{ id?: string; name?: string; sha1?: string }>;
  properties: Change<{ key: string; value: string }>;
}

export interface ArtifactBuilds {
  producedBy: { name: string; number: string; started: string; moduleID: string }[];
  usedBy: { name: string; number: string; started: string; moduleID: string }[];
}

/** Build names with their newest run; of one project when `projectKey` names one. */
export const useBuildNames = (projectKey?: string) =>
  useQuery({
    queryKey: [...buildsKey, 'names', projectKey],
    queryFn: () => apiFetch<BuildName[]>('ui/builds/names', { query: { projectKey } }),
  });

export interface ProjectBuilds {
  projectKey: string;
  builds: number;
  runs: number;
  lastStarted: string;
}

/** Per project, the builds the caller may read in it. */
export const useProjectBuilds = () =>
  useQuery({
    queryKey: [...buildsKey, 'projectInfo'],
    queryFn: () => apiFetch<ProjectBuilds[]>('ui/builds/projectInfo'),
  });

export const useBuildHistory = (name: string) =>
  useQuery({
    queryKey: [...buildsKey, 'history', name],
    queryFn: () => apiFetch<BuildRun[]>(`ui/builds/history/${encodeURIComponent(name)}`),
  });

export const useBuildInfo = (name: string, number: string) =>
  useQuery({
    queryKey: [...buildsKey, 'info', name, number],
    queryFn: () => apiFetch<BuildRunInfo>('ui/builds/info', { query: { name, number } }),
  });

export const useBuildDiff = (name: string, number: string, other: string | undefined) =>
  useQuery({
    queryKey: [...buildsKey, 'diff', name, number, other],
    queryFn: () => apiFetch<BuildDiff>('ui/builds/diff', { query: { name, number, other } }),
    enabled: Boolean(other),
  });

export const useArtifactBuilds = (repoKey: string, path: string) =>
  useQuery({
    queryKey: [...buildsKey, 'artifact', repoKey, path],
    queryFn: () => apiFetch<ArtifactBuilds>('ui/artifactbuilds', { query: { repoKey, path } }),
  });

/** The published build names that build patterns cover (the permission form's preview; administrators). */
export const useBuildPatternsPreview = (includePatterns: string[], excludePatterns: string[], enabled: boolean) =>
  useQuery({
    queryKey: [...buildsKey, 'patterns', includePatterns, excludePatterns],
    queryFn: () =>
      apiFetch<string[]>('ui/permissiontargets/buildPatterns', {
        method: 'POST',
        body: { includePatterns, excludePatterns },
        silent: true,
      }),
    enabled,
    placeholderData: (previous) => previous,
  });
