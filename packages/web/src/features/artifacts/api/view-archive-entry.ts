import { apiFetch } from '../../../api/client';

export function viewArchiveEntry(
  repoKey: string,
  archivePath: string,
  sourcePath: string,
): Promise<{ fileContent: string; truncated: boolean }> {
  return apiFetch('ui/archiveViewSource', { method: 'POST', body: { repoKey, archivePath, sourcePath } });
}
