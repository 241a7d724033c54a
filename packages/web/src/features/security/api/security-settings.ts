import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SecuritySettings } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { currentUserKey } from '../../auth';
import { globalStateKey } from '../../auth';
import { securityKeys } from './keys';

export function useSecuritySettings() {
  return useQuery({
    queryKey: securityKeys.settings,
    queryFn: () => apiFetch<SecuritySettings>('ui/security/settings'),
  });
}

export function useSaveSecuritySettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: SecuritySettings) =>
      apiFetch<SecuritySettings>('ui/security/settings', { method: 'PUT', body: settings, silent: true }),
    onSuccess: (saved) => {
      client.setQueryData(securityKeys.settings, saved);
      // anonymous access changes what the start-up data says
      return Promise.all([
        client.invalidateQueries({ queryKey: globalStateKey }),
        client.invalidateQueries({ queryKey: currentUserKey }),
      ]);
    },
  });
}
