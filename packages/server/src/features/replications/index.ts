import type { TableName } from '../../db/schema.js';
export { replicationManifestRoutes, replicationsRoutes } from './replications.routes.js';
export { registerReplications } from './replications.service.js';
export {
  deploymentRemote,
  pushFile,
  remoteFetch,
  remoteHeldContents,
  remoteManifest,
  type Remote,
} from './replications.engine.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['replications', 'replication_runs'] as const satisfies readonly TableName[];
