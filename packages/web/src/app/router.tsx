import { Button } from 'antd';
import { FullPageMessage } from '../components/full-page-message';
import { createBrowserRouter, Navigate, useRouteError, type RouteObject } from 'react-router';
import { CHUNK_LOAD_TIMEOUT_MS } from '@arca/contracts';
import { CONSOLE_ROUTES, SERVICE_NOT_FOUND_HANDLES, type ConsoleRoute } from './route-handles';
import { FullPageSpinner, Root } from './root';

/** A lazy route module that fails with ChunkLoadError when it has not arrived in 120 s. */
function page<T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T) {
  return async () => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error('A part of the console did not load in time.');
        error.name = 'ChunkLoadError';
        reject(error);
      }, CHUNK_LOAD_TIMEOUT_MS);
    });
    try {
      const module = await Promise.race([load(), timeout]);
      return { Component: module[name] as React.ComponentType };
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Shown when a route module could not be loaded or a page failed to render. */
function RouteError() {
  const error = useRouteError() as Error | undefined;
  const chunk =
    error?.name === 'ChunkLoadError' ||
    /dynamically imported module|Importing a module script/.test(error?.message ?? '');
  return (
    <FullPageMessage
      title={chunk ? 'This part of the console could not be loaded' : 'This page failed'}
      text={chunk ? 'The console may have been updated. Reload to get the current version.' : error?.message}
      action={
        <Button type="primary" onClick={() => window.location.reload()}>
          Reload
        </Button>
      }
    />
  );
}

/** A console route as the router takes it: its page loaded lazily, or where it sends on to. */
function routeOf(route: ConsoleRoute): RouteObject {
  return {
    ...(route.id ? { id: route.id } : {}),
    path: route.path,
    handle: route,
    ...(route.page ? { lazy: page(route.page, route.component!) } : {}),
    ...(route.redirect ? { element: <Navigate to={route.redirect} replace /> } : {}),
  };
}

const bare = CONSOLE_ROUTES.filter((route) => route.bare);
const framed = CONSOLE_ROUTES.filter((route) => !route.bare);

/**
 * The route table of spec part 1 §2, read off the features' routes (each path written once, in
 * its feature's `routes.ts`): the bare pages, then the application's frame and its pages.
 * Unknown paths go to /404, except the prefixes that belong to sub-applications.
 */
export const ROUTES: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteError />,
    HydrateFallback: FullPageSpinner,
    children: [
      { path: '/', element: null },
      { path: '/home', element: null },
      ...bare.map(routeOf),
      {
        lazy: page(() => import('./layout/app-layout'), 'AppLayout'),
        children: [
          ...framed.map(routeOf),
          {
            path: '/demo',
            handle: { title: 'Demo playground', testedFeature: true },
            lazy: page(() => import('../features/playground/pages/demo-pages'), 'DemoLayout'),
            children: [
              { index: true, element: <Navigate to="/demo/tree" replace /> },
              { path: 'tree', lazy: page(() => import('../features/playground/pages/demo-pages'), 'DemoTreePage') },
              { path: 'typescript', element: <Navigate to="/demo/typescript/greeting" replace /> },
              {
                path: 'typescript/greeting',
                lazy: page(() => import('../features/playground/pages/demo-pages'), 'DemoGreetingPage'),
              },
              {
                path: 'multi-mfe-mounting-container',
                lazy: page(() => import('../features/playground/pages/demo-pages'), 'DemoMountingContainerPage'),
              },
            ],
          },
          // a sub-application's pages (Pipelines, Distribution, Xray …) whose service is not installed:
          // in the console's frame, with its header and menu and a way back
          ...Object.entries(SERVICE_NOT_FOUND_HANDLES).map(([path, handle]) => ({
            path,
            handle,
            lazy: page(() => import('../features/errors/pages/error-pages'), 'ServiceNotFoundPage'),
          })),
        ],
      },
      { path: '*', handle: { public: true }, lazy: page(() => import('./unknown-path'), 'UnknownPath') },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(ROUTES, { basename: '/ui' });
}
