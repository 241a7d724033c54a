import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GeneralConfigAnswer, GeneralSettings } from '@arca/contracts';
import { API_BASE, ApiError, apiFetch } from '../../../api/client';
import { normalizeErrorMessages } from '@arca/contracts';
import { authKeys } from '../../auth';
import { settingsKeys } from './keys';

export function useGeneralConfig() {
  return useQuery({
    queryKey: settingsKeys.general,
    queryFn: () => apiFetch<GeneralConfigAnswer>('ui/generalConfig'),
  });
}

/** Saves the general settings; titles, footer and dates follow at once. */
export function useSaveGeneralConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: GeneralSettings) =>
      apiFetch<GeneralConfigAnswer>('ui/generalConfig', { method: 'PUT', body: settings, silent: true }),
    onSuccess: async (saved) => {
      client.setQueryData(settingsKeys.general, saved);
      await Promise.all([
        client.invalidateQueries({ queryKey: authKeys.globalState }),
        client.invalidateQueries({ queryKey: authKeys.footer }),
        client.invalidateQueries({ queryKey: settingsKeys.nginx }),
      ]);
    },
  });
}

/** The nginx configuration of the saved reverse proxy settings. */
export function useNginxConfig(enabled: boolean) {
  return useQuery({
    queryKey: settingsKeys.nginx,
    queryFn: () => apiFetch<string>('ui/reverseProxy/nginx'),
    enabled,
  });
}

async function sendLogo(file: File): Promise<void> {
  const response = await fetch(`${API_BASE}ui/generalConfig/logo`, {
    method: 'POST',
    headers: { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': file.type || 'application/octet-stream' },
    body: file,
    credentials: 'same-origin',
  });
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    throw new ApiError(response.status, normalizeErrorMessages({ body, message: response.statusText }), body);
  }
}

export function useLogo() {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: authKeys.footer }),
      client.invalidateQueries({ queryKey: settingsKeys.general }),
    ]);
  return {
    upload: useMutation({ mutationFn: sendLogo, onSuccess: refresh }),
    remove: useMutation({
      mutationFn: () => apiFetch<void>('ui/generalConfig/logo', { method: 'DELETE', silent: true }),
      onSuccess: refresh,
    }),
  };
}
