import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

/** Removes a node that stopped (spec part 2 §7.6); the status list is fetched again. */
export function useRemoveNode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (node: { serviceId: string; nodeId: string }) =>
      apiFetch<void>(
        `access/api/v1/topology/${encodeURIComponent(node.serviceId)}/${encodeURIComponent(node.nodeId)}`,
        { method: 'DELETE' },
      ),
    onSettled: () => client.invalidateQueries({ queryKey: systemKeys.nodes }),
  });
}
