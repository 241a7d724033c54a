import type { MenuEntry } from './menu';

/** What a route declares: its title, whether the guards apply, and the menu entry it is the page of. */
export interface RouteMeta {
  /** Page title; the document title is 'title - server name'. */
  title?: string;
  /** Login, logout and error pages: the guards do not apply (skipLicenseCheck). */
  public?: boolean;
  /** Administration pages. */
  admin?: boolean;
  /** An administration page also open to the holders of a security scanning role. */
  scanningRoles?: boolean;
  /** The template and demo playground: entered only when the tested-feature flag is on. */
  testedFeature?: boolean;
  /** The menu entry this page belongs to. */
  menuKey?: string;
  /** The menu entry this route is the page of (its path is the route's). */
  menu?: MenuEntry;
}

/**
 * A page of the console as its feature declares it (`features/<name>/routes.ts`), its path written
 * there only: the route table (`app/router.tsx`) hangs the lazy page on it, the menus and the
 * guards read its data without loading the page.
 */
export interface ConsoleRoute extends RouteMeta {
  path: string;
  /** The route's id, for the pages that look a route up by it. */
  id?: string;
  /** Outside the application's frame (sign-in, error pages): no header and no menus. */
  bare?: boolean;
  /** The page's module, loaded when the route is first entered, and the component it exports. */
  page?: () => Promise<Record<string, unknown>>;
  component?: string;
  /** A path that only sends on to another. */
  redirect?: string;
}
