import semver from 'semver';
import type { Format } from '../format.js';
import { terraformRoutes } from './terraform.routes.js';

/**
 * Terraform modules and providers: a terraform repository holds them at the layout the registry
 * protocols read (`modules/…`, `providers/…`, deployed with PUT like any file), and answers
 * Terraform's `modules.v1` and `providers.v1` under `/artifactory/api/terraform/v1/`.
 */
export const terraformFormat: Format = {
  types: ['terraform'],
  routes: terraformRoutes,
  layout: {
    parse(path) {
      const module = /^modules\/[^/]+\/([^/]+)\/[^/]+\/([^/]+)\.(?:zip|tar\.gz|tgz)$/.exec(path);
      if (module && semver.valid(module[2]!))
        return { module: module[1]!, version: module[2]!, fileVersion: module[2]! };
      const provider = /^providers\/[^/]+\/([^/]+)\/([^/]+)\/terraform-provider-[^/]+\.zip$/.exec(path);
      if (provider && semver.valid(provider[2]!)) {
        return { module: provider[1]!, version: provider[2]!, fileVersion: provider[2]! };
      }
      return undefined;
    },
    compareVersions: (a, b) => semver.compare(a, b),
    isIntegration: (version) => semver.prerelease(version) !== null,
  },
};
