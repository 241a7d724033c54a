import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebLogin } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { authKeys } from './keys';

/** A command-line client's pending browser sign-in, as the user is asked to approve it. */
export function useWebLogin(id: string) {
  return useQuery({
    queryKey: authKeys.webLogin(id),
    queryFn: () => apiFetch<WebLogin>(`ui/auth/web-login/${encodeURIComponent(id)}`, { silent: true }),
    // a page opened without a request asks nothing
    enabled: id !== '',
    retry: false,
  });
}

/** Approves or denies the request; the page shows the outcome. */
export function useDecideWebLogin(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (decision: 'approve' | 'deny') =>
      apiFetch<void>(`ui/auth/web-login/${encodeURIComponent(id)}/${decision}`, { method: 'POST', silent: true }),
    onSettled: () => client.invalidateQueries({ queryKey: authKeys.webLogin(id) }),
  });
}
