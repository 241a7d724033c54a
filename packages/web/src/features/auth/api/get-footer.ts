import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Footer } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { authKeys } from './keys';

export const footerKey = authKeys.footer;

export function getFooter(): Promise<Footer> {
  return apiFetch<Footer>('ui/auth/screen/footer', { silent: true });
}

export const footerQuery = () => queryOptions({ queryKey: footerKey, queryFn: getFooter, staleTime: 60_000 });

export function useFooter() {
  return useQuery(footerQuery());
}
