import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PackageSearchField } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { searchRequest, type SearchModel } from '../search-model';
import { searchKeys } from './keys';

/** One result row: the common fields, and whichever a type adds (class, version, extraField_… ). */
export interface SearchResult {
  name: string;
  repoKey: string;
  relativePath: string;
  path: string;
  size?: number;
  modifiedDate?: string;
  downloadLink?: string;
  [field: string]: unknown;
}

export interface SearchAnswer {
  results: SearchResult[];
  searchResultsMessage: string;
  limitSearchResults: boolean;
  /** Remote search: repositories whose upstream could not be searched. */
  errors?: { repoKey: string; message: string }[];
}

/** Runs a search; on failure the results are emptied (the query has none) and the error passed on. */
export function runSearch(model: SearchModel, signal?: AbortSignal): Promise<SearchAnswer> {
  const { path, body } = searchRequest(model);
  return apiFetch<SearchAnswer>(`ui/artifactsearch/${path}`, { method: 'POST', body, silent: true, signal });
}

export const searchQuery = (model: SearchModel, query: string) =>
  queryOptions({
    queryKey: searchKeys.results(query),
    queryFn: ({ signal }) => runSearch(model, signal),
    retry: false,
    staleTime: 0,
  });

export function useAvailablePackages() {
  return useQuery({
    queryKey: searchKeys.availablePackages,
    queryFn: () =>
      apiFetch<{ id: string; displayName: string; packageTypes: string[] }[]>(
        'ui/artifactsearch/pkg/availablePackages',
      ),
    staleTime: Infinity,
  });
}

export function usePackageFields(packageType: string) {
  return useQuery({
    queryKey: searchKeys.fields(packageType),
    queryFn: () =>
      apiFetch<Omit<PackageSearchField, 'source'>[]>(`ui/artifactsearch/pkg/${encodeURIComponent(packageType)}`),
    staleTime: Infinity,
  });
}

export function usePropertyKeys(enabled: boolean) {
  return useQuery({
    queryKey: searchKeys.propertyKeys,
    queryFn: () => apiFetch<{ key: string; values: string[] }[]>('ui/artifactsearch/property/keyvalue'),
    enabled,
  });
}

/** Moves results to the trash can; answers how many and which were refused. */
export function deleteResults(artifacts: { repoKey: string; path: string }[]) {
  return apiFetch<{ info: string; errors: { repoKey: string; path: string; message: string }[] }>(
    'ui/artifactsearch/deleteArtifact',
    { method: 'POST', body: { artifacts } },
  );
}
