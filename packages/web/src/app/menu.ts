import type { MenuItem } from '../lib/menu';
import { HANDLES, type RouteMeta } from './route-handles';

let items: MenuItem[] | undefined;

/**
 * The console's menu, read off the route table's data: a route whose handle declares a `menu`
 * entry is that entry's page, at the route's own path (a trailing `/*` or optional parameter dropped).
 */
export function menuItems(handles: Record<string, RouteMeta> = HANDLES): MenuItem[] {
  if (handles === HANDLES && items) return items;
  const entries: { order: number; item: MenuItem }[] = [];
  for (const [path, meta] of Object.entries(handles)) {
    if (!meta.menu) continue;
    const { order = Number.MAX_SAFE_INTEGER, ...entry } = meta.menu;
    entries.push({ order, item: { ...entry, path: path.replace(/(\/\*|\/:[^/]+\?)+$/, '') } });
  }
  // in the menus' order, whichever feature declares an entry (a stable sort keeps the rest as listed)
  const found = entries.sort((a, b) => a.order - b.order).map(({ item }) => item);
  if (handles === HANDLES) items = found;
  return found;
}
