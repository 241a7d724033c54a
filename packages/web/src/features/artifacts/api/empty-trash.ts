import { apiFetch } from '../../../api/client';

export function emptyTrash(): Promise<{ files: number }> {
  return apiFetch('ui/artifactactions/emptytrash', { method: 'POST', body: {} });
}
