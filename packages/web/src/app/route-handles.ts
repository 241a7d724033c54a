import type { ConsoleRoute, RouteMeta } from '../lib/console-route';
import { routes as authRoutes } from '../features/auth/routes';
import { routes as errorsRoutes } from '../features/errors/routes';
import { routes as overviewRoutes } from '../features/overview/routes';
import { routes as artifactsRoutes } from '../features/artifacts/routes';
import { routes as packagesRoutes } from '../features/packages/routes';
import { routes as buildsRoutes } from '../features/builds/routes';
import { routes as releaseBundlesRoutes } from '../features/release-bundles/routes';
import { routes as integrationsRoutes } from '../features/integrations/routes';
import { routes as appIntegrationsRoutes } from '../features/app-integrations/routes';
import { routes as searchRoutes } from '../features/search/routes';
import { routes as helpRoutes } from '../features/help/routes';
import { routes as deploymentsRoutes } from '../features/deployments/routes';
import { routes as adminMenuRoutes } from '../features/admin-menu/routes';
import { routes as repositoriesRoutes } from '../features/repositories/routes';
import { routes as storageRoutes } from '../features/storage/routes';
import { routes as usersRoutes } from '../features/users/routes';
import { routes as groupsRoutes } from '../features/groups/routes';
import { routes as permissionsRoutes } from '../features/permissions/routes';
import { routes as profileRoutes } from '../features/profile/routes';
import { routes as securityRoutes } from '../features/security/routes';
import { routes as settingsRoutes } from '../features/settings/routes';
import { routes as onboardingRoutes } from '../features/onboarding/routes';
import { routes as playgroundRoutes } from '../features/playground/routes';
import { routes as providersRoutes } from '../features/providers/routes';
import { routes as topologyRoutes } from '../features/topology/routes';
import { routes as federationRoutes } from '../features/federation/routes';
import { routes as replicationsRoutes } from '../features/replications/routes';
import { routes as keysRoutes } from '../features/keys/routes';
import { routes as mailRoutes } from '../features/mail/routes';
import { routes as webhooksRoutes } from '../features/webhooks/routes';
import { routes as auditRoutes } from '../features/audit/routes';
import { routes as projectsRoutes } from '../features/projects/routes';
import { routes as retentionRoutes } from '../features/retention/routes';
import { routes as backupRoutes } from '../features/backup/routes';
import { routes as supportRoutes } from '../features/support/routes';
import { routes as logsRoutes } from '../features/logs/routes';
import { routes as systemRoutes } from '../features/system/routes';
import { routes as licenseBucketsRoutes } from '../features/license-buckets/routes';
import { routes as licenseRoutes } from '../features/license/routes';
import { routes as scanningRoutes } from '../features/scanning/routes';
import { SUB_APPLICATION_PREFIXES } from './sub-applications';

export type { ConsoleRoute, RouteMeta } from '../lib/console-route';

/**
 * Every page of the console (spec part 1 §2), from the features that declare them: the sign-in and
 * error pages first, then the application's and the administration's. The menus list their entries
 * by `menu.order`, so a feature's place here does not move them.
 */
export const CONSOLE_ROUTES: readonly ConsoleRoute[] = [
  ...authRoutes,
  ...errorsRoutes,
  ...overviewRoutes,
  ...artifactsRoutes,
  ...packagesRoutes,
  ...buildsRoutes,
  ...releaseBundlesRoutes,
  ...integrationsRoutes,
  ...appIntegrationsRoutes,
  ...searchRoutes,
  ...helpRoutes,
  ...deploymentsRoutes,
  ...adminMenuRoutes,
  ...repositoriesRoutes,
  ...storageRoutes,
  ...usersRoutes,
  ...groupsRoutes,
  ...permissionsRoutes,
  ...profileRoutes,
  ...securityRoutes,
  ...settingsRoutes,
  ...onboardingRoutes,
  ...playgroundRoutes,
  ...providersRoutes,
  ...topologyRoutes,
  ...federationRoutes,
  ...replicationsRoutes,
  ...keysRoutes,
  ...mailRoutes,
  ...webhooksRoutes,
  ...auditRoutes,
  ...projectsRoutes,
  ...retentionRoutes,
  ...backupRoutes,
  ...supportRoutes,
  ...logsRoutes,
  ...systemRoutes,
  ...licenseBucketsRoutes,
  ...licenseRoutes,
  ...scanningRoutes,
];

/** The routes' data by path: what the menus and the guards read. */
export const HANDLES: Record<string, RouteMeta> = Object.fromEntries(
  CONSOLE_ROUTES.map((route) => [route.path, route]),
);

/** The pages of sub-applications whose service is not installed, one entry per routed path. */
export const SERVICE_NOT_FOUND_HANDLES: Record<string, RouteMeta> = Object.fromEntries(
  SUB_APPLICATION_PREFIXES.flatMap((prefix) => [prefix, `${prefix}/*`])
    // a sub-application the console serves itself (release bundles) keeps its own pages there
    .filter((path) => !(path in HANDLES))
    .map((path) => [path, { title: 'Service not found' }]),
);
