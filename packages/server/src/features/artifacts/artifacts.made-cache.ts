/**
 * What a format makes from stored files (a signed index, a virtual repository's merged view),
 * kept per process under a key naming what it was made from, so that it is never stale: the
 * `size` newest keys stay; a making that fails is forgotten, to be tried again.
 */
export function madeCache<T>(size: number): (key: string, make: () => Promise<T>) => Promise<T> {
  const kept = new Map<string, Promise<T>>();
  return (key, make) => {
    let found = kept.get(key);
    if (!found) {
      if (kept.size >= size) kept.delete(kept.keys().next().value!);
      found = make();
      found.catch(() => kept.delete(key));
      kept.set(key, found);
    }
    return found;
  };
}
