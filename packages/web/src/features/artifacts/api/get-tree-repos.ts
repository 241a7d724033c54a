import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TreeRepo } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { useSelectedProject } from '../../../lib/selected-project';
import { artifactsKeys } from './keys';

export function getTreeRepos(projectKey?: string): Promise<TreeRepo[]> {
  return apiFetch<TreeRepo[]>('ui/treebrowser/repos', { query: { projectKey } });
}

export const treeReposQuery = (projectKey?: string) =>
  queryOptions({ queryKey: artifactsKeys.repos(projectKey), queryFn: () => getTreeRepos(projectKey) });

/** The repositories of the tree: every readable one, or the selected project's. */
export function useTreeRepos() {
  return useQuery(treeReposQuery(useSelectedProject()));
}
