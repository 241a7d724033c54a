import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TreeRepo } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

export const artifactsKey = ['artifacts'] as const;

export function getTreeRepos(): Promise<TreeRepo[]> {
  return apiFetch<TreeRepo[]>('ui/treebrowser/repos');
}

export const treeReposQuery = () => queryOptions({ queryKey: [...artifactsKey, 'repos'], queryFn: getTreeRepos });

export function useTreeRepos() {
  return useQuery(treeReposQuery());
}
