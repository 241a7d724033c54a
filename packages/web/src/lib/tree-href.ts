/** The tree's address of a repository's file or folder, each segment encoded. */
export const treeHref = (repoKey: string, path: string) =>
  `/repos/tree/General/${[repoKey, ...path.split('/')].map(encodeURIComponent).join('/')}`;
