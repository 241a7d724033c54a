/** The archives whose Java classes the class search finds. */
export const CLASS_ARCHIVE_EXTENSIONS = ['jar', 'war', 'ear'] as const;

/** `org/acme/Outer$Inner.class` → its class name and whether it is an inner class. */
export function classOf(entryPath: string): { name: string; inner: boolean } | undefined {
  if (!entryPath.endsWith('.class')) return undefined;
  const name = entryPath.slice(entryPath.lastIndexOf('/') + 1, -'.class'.length);
  if (!name || name === 'module-info' || name === 'package-info') return undefined;
  return { name, inner: name.includes('$') };
}
