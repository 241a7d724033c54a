/** The log viewer's query keys. */
export const logKeys = {
  all: ['logs'] as const,
  config: (product: string, nodeId: string | undefined) => ['logs', 'config', product, nodeId ?? ''] as const,
};
