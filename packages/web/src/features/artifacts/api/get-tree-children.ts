import type { TreeChildren } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

/** Children of a folder, one page at a time (folders first, then by name). */
export function getTreeChildren(repoKey: string, path: string, offset: number, limit = 200): Promise<TreeChildren> {
  return apiFetch<TreeChildren>('ui/treebrowser/children', {
    query: { repoKey, path, offset, limit },
    background: offset > 0,
  });
}
