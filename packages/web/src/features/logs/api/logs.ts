import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LogConfig, LogData, LogProduct } from '@arca/contracts';
import { apiFetch } from '../../../api/client';
import { logKeys } from './keys';

/** A product's files on a node, the nodes running, and the refresh rate (spec part 2 §7.15). */
export function getLogConfig(product: LogProduct, nodeId: string | undefined): Promise<LogConfig> {
  return apiFetch<LogConfig>(`system/logs/config/${product}`, { query: { nodeId }, silent: true });
}

export const logConfigQuery = (product: LogProduct, nodeId: string | undefined) =>
  queryOptions({ queryKey: logKeys.config(product, nodeId), queryFn: () => getLogConfig(product, nodeId) });

export function useLogConfig(product: LogProduct, nodeId: string | undefined) {
  return useQuery(logConfigQuery(product, nodeId));
}

/** A file's text after `fileSize` (0 for a first load): a periodic read, not counted as page loading. */
export function getLogData(
  product: LogProduct,
  query: { nodeId: string | undefined; id: string; fileSize: number },
  signal?: AbortSignal,
): Promise<LogData> {
  return apiFetch<LogData>(`system/logs/data/${product}`, {
    query: { nodeId: query.nodeId, id: query.id, file_size: query.fileSize },
    background: true,
    ...(signal ? { signal } : {}),
  });
}
