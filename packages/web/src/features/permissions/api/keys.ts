/** The permissions feature's query keys. */
export const permissionsKeys = {
  all: ['permissions'] as const,
  list: ['permissions', 'list'] as const,
  one: (name: string | undefined) => ['permissions', 'one', name] as const,
};
