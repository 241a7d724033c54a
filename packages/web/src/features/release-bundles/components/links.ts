/** The console's page of a bundle version. */
export const versionHref = (name: string, version: string) =>
  `/bundles/${encodeURIComponent(name)}/${encodeURIComponent(version)}`;
