import { apiFetch } from '../../../api/client';

/** Restores an item of the trash can to where it was deleted from. */
export function restoreItem(trashPath: string): Promise<{ repoKey: string; path: string }> {
  return apiFetch('ui/artifactactions/restore', { method: 'POST', body: { path: trashPath } });
}
