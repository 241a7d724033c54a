import type { RouteObject } from 'react-router';
import type { MenuItem } from '../lib/menu';
import type { RouteMeta } from './guards';
import { ROUTES } from './router';

let items: MenuItem[] | undefined;

/**
 * The console's menu, read off the route table: a route whose handle declares a `menu` entry is
 * that entry's page, at the route's own path (a trailing `/*` dropped).
 */
export function menuItems(routes: RouteObject[] = ROUTES): MenuItem[] {
  if (routes === ROUTES && items) return items;
  const found: MenuItem[] = [];
  const walk = (list: RouteObject[]) => {
    for (const route of list) {
      const menu = (route.handle as RouteMeta | undefined)?.menu;
      if (menu && route.path) found.push({ ...menu, path: route.path.replace(/(\/\*|\/:[^/]+\?)+$/, '') });
      if (route.children) walk(route.children);
    }
  };
  walk(routes);
  if (routes === ROUTES) items = found;
  return found;
}
