import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MailSettings } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

export function useMailSettings() {
  return useQuery({ queryKey: ['mail', 'settings'], queryFn: () => apiFetch<MailSettings>('ui/mail') });
}

export function useSaveMailSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: MailSettings) =>
      apiFetch<MailSettings>('ui/mail', { method: 'PUT', body: settings, silent: true }),
    onSuccess: (saved) => {
      client.setQueryData(['mail', 'settings'], saved);
      return client.invalidateQueries({ queryKey: ['auth', 'loginRelatedData'] });
    },
  });
}

export function useSendTestMail() {
  return useMutation({
    mutationFn: (input: { to: string; settings: MailSettings }) =>
      apiFetch<{ message: string }>('ui/mail/test', { method: 'POST', body: input, silent: true }),
  });
}
