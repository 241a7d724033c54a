import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Project, ProjectForm, ProjectMember, ProjectRepositoryForm } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { repositoriesKeys } from '../../../lib/queries/repositories';
import { projectsKeys } from './keys';

export const projectsQuery = () =>
  queryOptions({ queryKey: projectsKeys.list, queryFn: () => apiFetch<Project[]>('projects', { silent: true }) });

export function useProjects(enabled = true) {
  return useQuery({ ...projectsQuery(), enabled });
}

export function useProject(key: string | undefined) {
  return useQuery({
    queryKey: projectsKeys.one(key),
    // the page says what went wrong (not found, not authorised) where it is
    queryFn: () => apiFetch<Project>(`projects/${encodeURIComponent(key!)}`, { silent: true }),
    enabled: Boolean(key),
  });
}

function useInvalidate() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: projectsKeys.all }),
      client.invalidateQueries({ queryKey: repositoriesKeys.all }),
    ]);
}

export function useCreateProject() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (form: ProjectForm) => apiFetch<Project>('projects', { method: 'POST', body: form, silent: true }),
    onSuccess: invalidate,
  });
}

export function useUpdateProject(key: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (form: { displayName: string; description: string }) =>
      apiFetch<Project>(`projects/${encodeURIComponent(key)}`, { method: 'PUT', body: form, silent: true }),
    onSuccess: invalidate,
  });
}

export function useDeleteProject() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (key: string) => apiFetch<void>(`projects/${encodeURIComponent(key)}`, { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useSetMembers(key: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (members: ProjectMember[]) =>
      apiFetch<Project>(`projects/${encodeURIComponent(key)}/members`, {
        method: 'PUT',
        body: { members },
        silent: true,
      }),
    onSuccess: invalidate,
  });
}

export function useAssignRepositories() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: { projectKey: string | null; repositories: string[] }) =>
      apiFetch<void>('projects/resources/assign', { method: 'POST', body: input }),
    onSuccess: invalidate,
  });
}

/** A project admin's new local repository in the project. */
export function useCreateProjectRepository(key: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (form: ProjectRepositoryForm) =>
      apiFetch<Project>(`projects/${encodeURIComponent(key)}/repositories`, {
        method: 'POST',
        body: form,
        silent: true,
      }),
    onSuccess: invalidate,
  });
}
