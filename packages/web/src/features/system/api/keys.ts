/** The system feature's query keys. */
export const systemKeys = {
  nodes: ['system', 'status', 'nodes'] as const,
  featuresConfig: ['system', 'featuresConfig'] as const,
  microservices: ['system', 'microservices'] as const,
  version: ['system', 'version'] as const,
};
