/** The audit feature's query keys. */
export const auditKeys = {
  all: ['audit'] as const,
  page: (query: unknown) => ['audit', query] as const,
};
