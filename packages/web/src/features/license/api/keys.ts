/** The licence feature's query keys. */
export const licenseKeys = {
  current: ['license', 'current'] as const,
};
