import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HomeWidgetInfo } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { overviewKeys } from './keys';

export const homeInfoKey = overviewKeys.homeInfo;

export function getHomeInfo(): Promise<HomeWidgetInfo> {
  return apiFetch<HomeWidgetInfo>('ui/home/widget/info', { silent: true });
}

export const homeInfoQuery = () =>
  queryOptions({ queryKey: homeInfoKey, queryFn: getHomeInfo, refetchInterval: 60_000 });

/** The dashboard's figures, lists and activity (what the caller may read). */
export function useHomeInfo() {
  return useQuery(homeInfoQuery());
}
