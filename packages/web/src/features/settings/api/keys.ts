/** The settings feature's query keys. */
export const settingsKeys = {
  general: ['settings', 'general'] as const,
  nginx: ['settings', 'nginx'] as const,
  proxies: ['settings', 'proxies'] as const,
  proxy: (key: string) => ['settings', 'proxies', key] as const,
};
