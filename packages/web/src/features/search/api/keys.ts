/** The search feature's query keys. */
export const searchKeys = {
  all: ['search'] as const,
  results: (query: unknown) => ['search', 'results', query] as const,
  availablePackages: ['search', 'availablePackages'] as const,
  fields: (packageType: string | undefined) => ['search', 'fields', packageType] as const,
  propertyKeys: ['search', 'keyvalue'] as const,
};
