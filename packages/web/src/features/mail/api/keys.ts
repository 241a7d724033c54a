/** The mail feature's query keys. */
export const mailKeys = {
  settings: ['mail', 'settings'] as const,
};
