/** The console's address of a package, or of one of its versions. */
export const packageHref = (id: string, version?: string) =>
  `/packages/${encodeURIComponent(id)}${version ? `/${encodeURIComponent(version)}` : ''}`;

/** The tree's address of a file. */
export const treeHref = (repoKey: string, path: string) =>
  `/repos/tree/General/${[repoKey, ...path.split('/')].map(encodeURIComponent).join('/')}`;
