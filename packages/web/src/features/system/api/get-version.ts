import { queryOptions, useQuery } from '@tanstack/react-query';
import type { VersionInfo } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { systemKeys } from './keys';

export function getVersion(): Promise<VersionInfo> {
  return apiFetch<VersionInfo>('system/version', { silent: true });
}

export const versionQuery = () =>
  queryOptions({ queryKey: systemKeys.version, queryFn: getVersion, staleTime: 5 * 60_000 });

export function useVersion() {
  return useQuery(versionQuery());
}
