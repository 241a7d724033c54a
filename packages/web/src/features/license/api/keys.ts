/** The license feature's query keys. */
export const licenseKeys = {
  current: ['license', 'current'] as const,
};
