/** The query keys of the release bundles feature: a mutation invalidates through the same key. */
export const releaseBundleKeys = {
  all: ['release-bundles'] as const,
  names: () => [...releaseBundleKeys.all, 'names'] as const,
  versions: (name: string) => [...releaseBundleKeys.all, 'versions', name] as const,
  version: (name: string, version: string) => [...releaseBundleKeys.all, 'version', name, version] as const,
  content: (name: string, version: string) => [...releaseBundleKeys.version(name, version), 'content'] as const,
  promotions: (name: string, version: string) => [...releaseBundleKeys.version(name, version), 'promotions'] as const,
  verify: (name: string, version: string) => [...releaseBundleKeys.version(name, version), 'verify'] as const,
  trackers: (name: string, version: string) => [...releaseBundleKeys.version(name, version), 'trackers'] as const,
  environments: () => ['environments'] as const,
};
