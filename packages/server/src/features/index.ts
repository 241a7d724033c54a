import type { FastifyInstance } from 'fastify';
import { artifactsConsoleRoutes } from './artifacts/artifacts.console.routes.js';
import { artifactsRestRoutes } from './artifacts/artifacts.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { signInFlowRoutes } from './auth/flows.routes.js';
import { mailRoutes } from './mail/mail.routes.js';
import { licenseRoutes } from './license/license.routes.js';
import { repositoriesConsoleRoutes, repositoriesRestRoutes } from './repositories/repositories.routes.js';
import { artifactorySystemRoutes, systemRoutes } from './system/system.routes.js';
import { usersRestRoutes, usersRoutes } from './users/users.routes.js';
import { groupsRestRoutes, groupsRoutes } from './groups/groups.routes.js';
import { permissionsRestRoutes, permissionsRoutes } from './permissions/permissions.routes.js';
import { tokensRestRoutes, tokensRoutes } from './tokens/tokens.routes.js';
import { securityRoutes } from './security/security.routes.js';
import { projectsRoutes } from './projects/projects.routes.js';
import { registerArtifactJobs } from './artifacts/artifacts.jobs.js';
import { registerClassIndexer } from './artifacts/artifacts.classes.js';
import { registerAuthJobs } from './auth/auth.jobs.js';

import { packagesRoutes } from './packages/packages.routes.js';
import { registerCatalogueIndexer } from './packages/packages.indexer.js';
import { searchRestRoutes } from './search/search.routes.js';
import { searchConsoleRoutes } from './search/search.console.js';
import { buildsConsoleRoutes, buildsPagesRoutes, buildsRestRoutes } from './builds/builds.routes.js';
import { CONSOLE_API_PREFIX } from '../core/console.plugin.js';

/** Every feature of the server, in one list. */
export async function registerFeatures(app: FastifyInstance): Promise<void> {
  await app.register(authRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(signInFlowRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(mailRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(systemRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(licenseRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(usersRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(groupsRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(permissionsRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(tokensRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(securityRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(projectsRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(repositoriesConsoleRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(artifactsConsoleRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(packagesRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(searchConsoleRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(buildsConsoleRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(buildsPagesRoutes, { prefix: CONSOLE_API_PREFIX });
  await app.register(artifactorySystemRoutes);
  await app.register(repositoriesRestRoutes);
  await app.register(usersRestRoutes);
  await app.register(groupsRestRoutes);
  await app.register(permissionsRestRoutes);
  await app.register(tokensRestRoutes);
  await app.register(artifactsRestRoutes);
  await app.register(searchRestRoutes);
  await app.register(buildsRestRoutes);
  registerAuthJobs(app);
  registerArtifactJobs(app);
  registerCatalogueIndexer(app);
  registerClassIndexer(app);
}
