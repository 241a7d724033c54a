export { registerClassIndexer, type ClassIndexer } from './artifacts.classes.js';
export { artifactsConsoleRoutes } from './artifacts.console.routes.js';
export { repoContent, systemContent } from './artifacts.content.js';
export type { DeployRequest, RepoContent } from './artifacts.content.js';
export { baseUrlOf, headerValue, repoAndPath, sendDerived, sendFolderIndex, sendItem } from './artifacts.http.js';
export { TRASHCAN_ROW, mimeTypeOf } from './artifacts.items.js';
export { registerArtifactJobs } from './artifacts.jobs.js';
export type { Resolved } from './artifacts.resolve.js';
export { artifactsRestRoutes } from './artifacts.routes.js';
export { checksumsOf } from './artifacts.service.js';
export { flushDownloads } from './artifacts.stats.js';
export { downloadUri, itemCreated, storageUri } from './artifacts.uris.js';
export { enableItemCache, findItem, storedContents } from './artifacts.store.js';
export type { DerivedFile, FormatRegistry, PlainPaths } from './artifacts.formats.js';
export type { ClientSignIn, DoorPorts, HeldAdvisory, MetadataSigner } from './artifacts.ports.js';
export { changeMetadataFile, deployBytes } from './artifacts.metadata-file.js';
export { readLimited, withBody } from './artifacts.bodies.js';
export { deployAtPath } from './artifacts.plain-deploy.js';
export { madeCache } from './artifacts.made-cache.js';
export { madeStoreOf, type MadeStore } from './artifacts.made-store.js';
export {
  TooLarge,
  TooManyEntries,
  decompress,
  gunzipCapped,
  readTar,
  type TarContents,
} from './artifacts.package-archive.js';
import type { TableName } from '../../db/schema.js';
export { putBackFiles, refusalAt, releaseUnusedContents, takeOutFiles } from './artifacts.cold.js';
export type { IncomingFile, OutgoingFile } from './artifacts.cold.js';
export { artifactoryStorageInfo } from './artifacts.usage.js';
export { heldPaths, holdFiles, notHeld, releaseHolds } from './artifacts.holds.store.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = [
  'storage_samples',
  'made_files',
  'binaries',
  'items',
  'item_properties',
  'archive_classes',
  'repository_usage',
  'item_holds',
] as const satisfies readonly TableName[];
