import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { artifactsKeys } from './keys';

export function deleteProperty(input: {
  repoKey: string;
  path: string;
  key: string;
  recursive?: boolean;
}): Promise<void> {
  return apiFetch<void>('ui/artifactproperties', {
    method: 'DELETE',
    query: { repoKey: input.repoKey, path: input.path, key: input.key, recursive: input.recursive ? 'true' : 'false' },
  });
}

export function useDeleteProperty() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteProperty,
    onSuccess: () => client.invalidateQueries({ queryKey: artifactsKeys.properties() }),
  });
}
