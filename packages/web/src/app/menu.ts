import type { MenuItem } from '../lib/menu';
import { HANDLES, type RouteMeta } from './route-handles';

let items: MenuItem[] | undefined;

/**
 * The console's menu, read off the route table's data: a route whose handle declares a `menu`
 * entry is that entry's page, at the route's own path (a trailing `/*` or optional parameter dropped).
 */
export function menuItems(handles: Record<string, RouteMeta> = HANDLES): MenuItem[] {
  if (handles === HANDLES && items) return items;
  const found: MenuItem[] = [];
  for (const [path, meta] of Object.entries(handles)) {
    if (meta.menu) found.push({ ...meta.menu, path: path.replace(/(\/\*|\/:[^/]+\?)+$/, '') });
  }
  if (handles === HANDLES) items = found;
  return found;
}
