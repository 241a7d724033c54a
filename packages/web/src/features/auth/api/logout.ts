import { apiFetch } from '../../../api/client';

export function logout(): Promise<void> {
  return apiFetch<void>('auth/logout', { silent: true });
}
