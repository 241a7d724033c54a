import type { CopyMoveBody, CopyMoveReport } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

export function copyOrMoveItem(mode: 'copy' | 'move', body: CopyMoveBody): Promise<CopyMoveReport> {
  return apiFetch(`ui/artifactactions/${mode}`, { method: 'POST', body, silent: true });
}
