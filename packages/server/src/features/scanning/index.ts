import type { FastifyInstance } from 'fastify';
import type { TableName } from '../../db/schema.js';
import type { CatalogueIndexer } from '../packages/index.js';
import { MATCHING_JOB } from './scanning.import.js';
import { ADVISORY_SOURCES_JOB, runDueSources } from './scanning.sources.js';
import { Scanner } from './scanning.scanner.js';
import { refreshBlocked } from './scanning.blocking.js';
import { scannedSince } from './scanning.store.js';

export { scanningRoutes } from './scanning.routes.js';
export { downloadBlock } from './scanning.blocking.js';
export type { Scanner } from './scanning.scanner.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = [
  'advisories',
  'advisory_packages',
  'package_scans',
  'package_findings',
  'scan_policies',
  'scan_watches',
  'scan_ignore_rules',
  'advisory_sources',
] as const satisfies readonly TableName[];

/**
 * Starts the scanner: each version the catalogue records is matched at once, and a job sweeps
 * the whole catalogue every quarter of an hour and after each import of advisories, so that what
 * a restart interrupted or new advisories concern is matched too.
 */
export function registerScanning(app: FastifyInstance, scanner: Scanner, catalogue: CatalogueIndexer): void {
  // the matchings under way finish before the app closes (its database and its log with it); a
  // version catalogued while it closes is matched by the next sweep
  const matching = new Set<Promise<void>>();
  let closing = false;
  catalogue.onIndexed((version) => {
    if (closing) return;
    const run: Promise<void> = scanner
      .scan([version])
      .catch((error: unknown) => app.log.warn({ err: error }, 'matching a package version failed'))
      .finally(() => matching.delete(run));
    matching.add(run);
  });
  app.addHook('onClose', async () => {
    closing = true;
    await Promise.allSettled([...matching]);
  });
  app.jobs.register(MATCHING_JOB, '*/15 * * * *', async () => {
    await scanner.sweep();
  });
  // the advisory sources due are fetched (each every so many hours), on one node at a time
  app.jobs.register(ADVISORY_SOURCES_JOB, '*/10 * * * *', async () => {
    await runDueSources(app);
  });
  // what another node's scans changed is read again here, version by version (this node's own at once)
  let since = Date.now();
  app.work.every(BLOCKING_LOOP, BLOCKING_LOOP_MS, async () => {
    // a scan's time is taken before it commits, and the nodes' clocks differ a little
    const from = since - 10_000;
    since = Date.now();
    await refreshBlocked(app, await scannedSince(app.db, from));
  });
}

/** The loop that follows other nodes' scans for what downloads are blocked, and how often it looks. */
const BLOCKING_LOOP = 'download-blocking';
const BLOCKING_LOOP_MS = 5_000;

/** The scanner of this process (what the door asks for the advisories a client's audit concerns). */
export const createScanner = (app: FastifyInstance) => new Scanner(app);
