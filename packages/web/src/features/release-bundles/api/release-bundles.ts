import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  AbortedTarget,
  BundleArtifact,
  DistributionTracker,
  CreateReleaseBundleBody,
  Environment,
  PromotionRecord,
  ReleaseBundleVersion,
  VerifyAnswer,
  promotionBodySchema,
  releaseBundleNamesAnswerSchema,
} from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { releaseBundleKeys } from './keys';

/** The Release Lifecycle API under the console's base. */
const LIFECYCLE = 'lifecycle/api/v2';
const encoded = (name: string, version: string) => `${encodeURIComponent(name)}/${encodeURIComponent(version)}`;

export type BundleName = z.infer<typeof releaseBundleNamesAnswerSchema>['release_bundles'][number];

/** Every bundle the caller may read, with its latest version. */
export const useReleaseBundleNames = () =>
  useQuery({
    queryKey: releaseBundleKeys.names(),
    queryFn: async () =>
      (await apiFetch<{ release_bundles: BundleName[] }>(`${LIFECYCLE}/release_bundle/names`)).release_bundles,
  });

/** The versions of one bundle, newest first. */
export const useBundleVersions = (name: string) =>
  useQuery({
    queryKey: releaseBundleKeys.versions(name),
    queryFn: async () =>
      (
        await apiFetch<{ release_bundles: ReleaseBundleVersion[] }>(
          `${LIFECYCLE}/release_bundle/records/${encodeURIComponent(name)}`,
          { query: { limit: 1000 } },
        )
      ).release_bundles,
  });

export const useBundleVersion = (name: string, version: string) =>
  useQuery({
    queryKey: releaseBundleKeys.version(name, version),
    queryFn: () => apiFetch<ReleaseBundleVersion>(`${LIFECYCLE}/release_bundle/records/${encoded(name, version)}`),
  });

/** A version's artifacts (the first 1,000; the version's count says how many in all). */
export const useBundleContent = (name: string, version: string) =>
  useQuery({
    queryKey: releaseBundleKeys.content(name, version),
    queryFn: () =>
      apiFetch<{ artifacts: BundleArtifact[]; total: number }>(
        `${LIFECYCLE}/release_bundle/records/${encoded(name, version)}/content`,
        { query: { limit: 1000 } },
      ),
  });

export const usePromotions = (name: string, version: string) =>
  useQuery({
    queryKey: releaseBundleKeys.promotions(name, version),
    queryFn: async () =>
      (await apiFetch<{ promotions: PromotionRecord[] }>(`${LIFECYCLE}/promotion/records/${encoded(name, version)}`))
        .promotions,
  });

/** Verifies a version on demand (its signature and its artifacts). */
export const useVerifyBundle = (name: string, version: string) =>
  useMutation({
    mutationFn: () =>
      apiFetch<VerifyAnswer>(`${LIFECYCLE}/release_bundle/records/${encoded(name, version)}/verify`, {
        silent: true,
      }),
  });

export function useCreateBundle() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateReleaseBundleBody) =>
      apiFetch<{ release_bundle_name: string; release_bundle_version: string }>(`${LIFECYCLE}/release_bundle`, {
        method: 'POST',
        body,
        silent: true,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: releaseBundleKeys.all }),
  });
}

export function useDeleteBundleVersion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, version }: { name: string; version: string }) =>
      apiFetch<void>(`${LIFECYCLE}/release_bundle/records/${encoded(name, version)}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: releaseBundleKeys.all }),
  });
}

export function usePromote(name: string, version: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ operation, ...body }: z.input<typeof promotionBodySchema> & { operation: 'copy' | 'move' }) =>
      apiFetch<unknown>(`${LIFECYCLE}/promotion/records/${encoded(name, version)}`, {
        method: 'POST',
        body,
        query: { operation },
        silent: true,
      }),
    onSettled: () => client.invalidateQueries({ queryKey: releaseBundleKeys.all }),
  });
}

/** The environments in order, with their repositories. */
export const useEnvironments = () =>
  useQuery({
    queryKey: releaseBundleKeys.environments(),
    queryFn: () => apiFetch<Environment[]>('access/environments'),
  });

/** Creates or changes an environment (`existing`: its name stays), and deletes one. */
export function useSaveEnvironment() {
  const client = useQueryClient();
  const invalidate = () => client.invalidateQueries({ queryKey: releaseBundleKeys.environments() });
  return {
    create: useMutation({
      mutationFn: ({
        existing,
        name,
        ...body
      }: {
        name: string;
        description: string;
        repositories: string[];
        existing?: boolean;
      }) =>
        existing
          ? apiFetch<Environment>(`access/api/v1/environments/${encodeURIComponent(name)}`, {
              method: 'PUT',
              body,
              silent: true,
            })
          : apiFetch<Environment>('access/api/v1/environments', {
              method: 'POST',
              body: { name, ...body },
              silent: true,
            }),
      onSuccess: invalidate,
    }),
    remove: useMutation({
      mutationFn: (name: string) =>
        apiFetch<void>(`access/api/v1/environments/${encodeURIComponent(name)}`, { method: 'DELETE' }),
      onSuccess: invalidate,
    }),
  };
}

/** Where a version was distributed, each target with its progress; refreshed while one is under way. */
export const useTrackers = (name: string, version: string) =>
  useQuery({
    queryKey: releaseBundleKeys.trackers(name, version),
    queryFn: () =>
      apiFetch<DistributionTracker[]>(`${LIFECYCLE}/distribution/trackers/${encoded(name, version)}`, {
        background: true,
      }),
    refetchInterval: (query) => (query.state.data?.some((t) => t.status === 'IN_PROGRESS') ? 1500 : false),
  });

/** Distributes a version to (or deletes it from) the paired deployments the site names pick. */
export function useDistribute(name: string, version: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      action,
      sites,
      autoCreate,
    }: {
      action: 'distribute' | 'remote_delete';
      sites: string[];
      autoCreate: boolean;
    }) =>
      apiFetch<{ trackers: DistributionTracker[] }>(`${LIFECYCLE}/distribution/${action}/${encoded(name, version)}`, {
        method: 'POST',
        body: {
          distribution_rules: sites.map((site_name) => ({ site_name })),
          auto_create_missing_repositories: autoCreate,
        },
        silent: true,
      }),
    onSettled: () => client.invalidateQueries({ queryKey: releaseBundleKeys.trackers(name, version) }),
  });
}

/** Aborts a version's distributions still under way; answers the targets that stopped. */
export function useAbortDistribution(name: string, version: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiFetch<AbortedTarget[]>(`${LIFECYCLE}/distribution/abort/${encoded(name, version)}`, {
        method: 'PUT',
        silent: true,
      }),
    onSettled: () => client.invalidateQueries({ queryKey: releaseBundleKeys.trackers(name, version) }),
  });
}
