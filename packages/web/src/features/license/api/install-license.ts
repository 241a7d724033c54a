import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LicenseInfo } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { footerKey } from '../../auth';
import { globalStateKey } from '../../auth';
import { licenseKey } from './get-license';

export function installLicense(licenseKeyText: string): Promise<LicenseInfo> {
  return apiFetch<LicenseInfo>('ui/license', { method: 'POST', body: { licenseKey: licenseKeyText } });
}

export function useInstallLicense() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: installLicense,
    onSuccess: async (info) => {
      client.setQueryData(licenseKey, info);
      await Promise.all([
        client.invalidateQueries({ queryKey: footerKey }),
        client.invalidateQueries({ queryKey: globalStateKey }),
      ]);
    },
  });
}
