import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginBody, UserData } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { currentUserKey } from './get-current-user';

export function login(body: Omit<LoginBody, 'type'>, rememberMe: boolean): Promise<UserData> {
  return apiFetch<UserData>('ui/auth/login', {
    method: 'POST',
    body: { ...body, type: 'login' },
    query: { _spring_security_remember_me: rememberMe ? 'true' : undefined },
    // the login page lists the server's messages itself
    silent: true,
  });
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { user: string; password: string; rememberMe: boolean }) =>
      login({ user: input.user, password: input.password }, input.rememberMe),
    onSuccess: async (user) => {
      // everything cached so far belongs to the anonymous user
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== 'auth' || q.queryKey[1] !== 'current' });
      client.setQueryData(currentUserKey, user);
    },
  });
}
