import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PropertiesBody } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { artifactsKeys } from './keys';

export function setProperty(body: PropertiesBody): Promise<void> {
  return apiFetch<void>('ui/artifactproperties', { method: 'POST', body, silent: true });
}

export function useSetProperty() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setProperty,
    onSuccess: () => client.invalidateQueries({ queryKey: artifactsKeys.properties() }),
  });
}
