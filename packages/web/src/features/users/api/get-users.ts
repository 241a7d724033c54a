import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserListItem } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

export function getUsers(): Promise<UserListItem[]> {
  return apiFetch<UserListItem[]>('ui/users');
}

export const usersQuery = () => queryOptions({ queryKey: ['users', 'list'], queryFn: getUsers });

export function useUsers(enabled = true) {
  return useQuery({ ...usersQuery(), enabled });
}
