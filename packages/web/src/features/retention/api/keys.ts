/** The retention pages' query keys. */
export const retentionKeys = {
  all: ['retention'] as const,
  policies: ['retention', 'policies'] as const,
  policy: (key: string | undefined) => ['retention', 'policies', key] as const,
  executions: (kind: 'archive' | 'restore', from: number, to: number) =>
    ['retention', 'executions', kind, from, to] as const,
  items: (id: string, state: string | undefined, offset: number) => ['retention', 'items', id, state, offset] as const,
  storage: (from: number, to: number) => ['retention', 'storage', from, to] as const,
  repositories: ['retention', 'repositories'] as const,
  search: (query: string) => ['retention', 'search', query] as const,
  cron: (cron: string) => ['retention', 'cron', cron] as const,
};
