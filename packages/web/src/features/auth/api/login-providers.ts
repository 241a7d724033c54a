import { useQuery } from '@tanstack/react-query';
import type { LoginProvider } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { authKeys } from './keys';

/** The identity providers the login page offers (`GET /ui/oauth2/loginRequestPlatform`). */
export function useLoginProviders() {
  return useQuery({
    queryKey: authKeys.loginProviders,
    queryFn: () => apiFetch<LoginProvider[]>('ui/oauth2/loginRequestPlatform', { silent: true }),
    staleTime: 60_000,
  });
}

/** Where the browser goes to sign in through a provider (its URL is the server's, from the root). */
export const providerHref = (url: string, redirect = '/ui/') =>
  `${new URL(url, window.location.origin).href}?redirect=${encodeURIComponent(redirect)}`;
