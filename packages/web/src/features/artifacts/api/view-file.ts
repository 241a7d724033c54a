import { apiFetch } from '../../../api/client';

export function viewFile(repoKey: string, path: string): Promise<{ fileContent: string; truncated: boolean }> {
  return apiFetch('ui/artifactactions/view', { method: 'POST', body: { repoKey, path } });
}
