import { apiFetch } from '../../../api/client';

/** Moves an item to the trash can (or deletes it for good when it is in the trash can). */
export function deleteItem(repoKey: string, path: string): Promise<void> {
  return apiFetch<void>('ui/artifactactions/delete', { method: 'POST', body: { repoKey, path } });
}
