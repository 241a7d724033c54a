import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Group, UserListItem } from '@arca/contracts';
import { apiFetch } from '../../api/client';

/**
 * The directory every access page reads — who the users and groups are — shared by the users,
 * groups, permissions and projects pages. Their own changes invalidate these keys.
 */
export const directoryKeys = {
  users: ['users'] as const,
  usersList: ['users', 'list'] as const,
  groups: ['groups'] as const,
  groupsList: ['groups', 'list'] as const,
  /** Every user's name (the token form's user picker). */
  userNames: ['users', 'names'] as const,
};

export function getUsers(): Promise<UserListItem[]> {
  return apiFetch<UserListItem[]>('ui/users');
}

export const usersQuery = () => queryOptions({ queryKey: directoryKeys.usersList, queryFn: getUsers });

export function useUsers(enabled = true) {
  return useQuery({ ...usersQuery(), enabled });
}

export const groupsQuery = () =>
  queryOptions({ queryKey: directoryKeys.groupsList, queryFn: () => apiFetch<Group[]>('ui/groups') });

export function useGroups(enabled = true) {
  return useQuery({ ...groupsQuery(), enabled });
}
