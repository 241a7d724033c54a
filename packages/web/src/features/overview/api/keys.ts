/** The overview feature's query keys. */
export const overviewKeys = {
  homeInfo: ['home', 'info'] as const,
};
