/** The projects feature's query keys. */
export const projectsKeys = {
  all: ['projects'] as const,
  list: ['projects', 'list'] as const,
  one: (key: string | undefined) => ['projects', 'one', key] as const,
};
