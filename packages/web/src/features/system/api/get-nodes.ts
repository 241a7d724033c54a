import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NodesAnswer } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { systemKeys } from './keys';

/** A periodic refresh: not counted in the content-loading indicator. */
export function getNodes(): Promise<NodesAnswer> {
  return apiFetch<NodesAnswer>('system/status/nodes', { background: true });
}

/** Refreshed every 10 seconds while the page is open. */
export const nodesQuery = () =>
  queryOptions({ queryKey: systemKeys.nodes, queryFn: getNodes, refetchInterval: 10_000 });

export function useNodes(enabled = true) {
  return useQuery({ ...nodesQuery(), enabled });
}
