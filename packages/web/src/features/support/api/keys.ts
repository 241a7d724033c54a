/** The support zone's query keys. */
export const supportKeys = {
  bundles: ['support', 'bundles'] as const,
};
