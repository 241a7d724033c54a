import type { CopyMoveBody } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

export function copyOrMoveItem(
  mode: 'copy' | 'move',
  body: CopyMoveBody,
): Promise<{ files: number; repoKey: string; path: string }> {
  return apiFetch(`ui/artifactactions/${mode}`, { method: 'POST', body, silent: true });
}
