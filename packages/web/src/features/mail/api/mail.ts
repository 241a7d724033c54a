import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MailSettings } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { authKeys } from '../../auth';
import { mailKeys } from './keys';

export function useMailSettings() {
  return useQuery({ queryKey: mailKeys.settings, queryFn: () => apiFetch<MailSettings>('ui/mail') });
}

export function useSaveMailSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: MailSettings) =>
      apiFetch<MailSettings>('ui/mail', { method: 'PUT', body: settings, silent: true }),
    onSuccess: (saved) => {
      client.setQueryData(mailKeys.settings, saved);
      return client.invalidateQueries({ queryKey: authKeys.loginRelatedData });
    },
  });
}

export function useSendTestMail() {
  return useMutation({
    mutationFn: (input: { to: string; settings: MailSettings }) =>
      apiFetch<{ message: string }>('ui/mail/test', { method: 'POST', body: input, silent: true }),
  });
}
