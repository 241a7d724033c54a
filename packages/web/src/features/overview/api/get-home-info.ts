import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HomeWidgetInfo } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

export const homeInfoKey = ['home', 'info'] as const;

export function getHomeInfo(): Promise<HomeWidgetInfo> {
  return apiFetch<HomeWidgetInfo>('ui/home/widget/info', { silent: true });
}

export const homeInfoQuery = () =>
  queryOptions({ queryKey: homeInfoKey, queryFn: getHomeInfo, refetchInterval: 60_000 });

/** The dashboard's figures, lists and activity (what the caller may read). */
export function useHomeInfo() {
  return useQuery(homeInfoQuery());
}
