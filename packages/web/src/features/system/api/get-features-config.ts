import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FeaturesConfig } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { systemKeys } from './keys';

export function getFeaturesConfig(): Promise<FeaturesConfig> {
  return apiFetch<FeaturesConfig>('system/featuresConfig', { silent: true });
}

export const featuresConfigQuery = () =>
  queryOptions({ queryKey: systemKeys.featuresConfig, queryFn: getFeaturesConfig, staleTime: 5 * 60_000 });

export function useFeaturesConfig() {
  return useQuery(featuresConfigQuery());
}
