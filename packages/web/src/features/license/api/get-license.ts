import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LicenseInfo } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { licenseKeys } from './keys';

export const licenseKey = licenseKeys.current;

export function getLicense(): Promise<LicenseInfo> {
  return apiFetch<LicenseInfo>('ui/license');
}

export const licenseQuery = () => queryOptions({ queryKey: licenseKey, queryFn: getLicense });

export function useLicense() {
  return useQuery(licenseQuery());
}
