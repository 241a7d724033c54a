import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MicroservicesEnabled } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { systemKeys } from './keys';

export function getMicroservices(): Promise<MicroservicesEnabled> {
  return apiFetch<MicroservicesEnabled>('system/ismicroserviceenabled', { silent: true });
}

export const microservicesQuery = () =>
  queryOptions({ queryKey: systemKeys.microservices, queryFn: getMicroservices, staleTime: 5 * 60_000 });

export function useMicroservices() {
  return useQuery(microservicesQuery());
}
