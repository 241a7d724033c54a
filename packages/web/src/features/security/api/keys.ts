/** The security feature's query keys. */
export const securityKeys = {
  settings: ['security', 'settings'] as const,
};
