/** The console's address of a package, or of one of its versions. */
export const packageHref = (id: string, version?: string) =>
  `/packages/${encodeURIComponent(id)}${version ? `/${encodeURIComponent(version)}` : ''}`;
