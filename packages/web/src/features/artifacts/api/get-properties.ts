import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Properties } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { artifactsKeys } from './keys';

export function getProperties(repoKey: string, path: string): Promise<Properties> {
  return apiFetch<Properties>('ui/artifactproperties', { query: { repoKey, path } });
}

export const propertiesQuery = (repoKey: string, path: string) =>
  queryOptions({
    queryKey: artifactsKeys.properties(repoKey, path),
    queryFn: () => getProperties(repoKey, path),
  });

export function useProperties(repoKey: string, path: string) {
  return useQuery(propertiesQuery(repoKey, path));
}
