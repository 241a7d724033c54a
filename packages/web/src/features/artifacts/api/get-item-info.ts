import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ItemInfo } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { artifactsKeys } from './keys';

export function getItemInfo(repoKey: string, path: string): Promise<ItemInfo> {
  return apiFetch<ItemInfo>('ui/artifactgeneral', { query: { repoKey, path }, silent: true });
}

export const itemInfoQuery = (repoKey: string, path: string) =>
  queryOptions({ queryKey: artifactsKeys.info(repoKey, path), queryFn: () => getItemInfo(repoKey, path) });

export function useItemInfo(repoKey: string | undefined, path: string) {
  return useQuery({ ...itemInfoQuery(repoKey ?? '', path), enabled: Boolean(repoKey) });
}
