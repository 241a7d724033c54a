import type { FastifyInstance } from 'fastify';
import type { TableName } from '../../db/schema.js';
import type { CatalogueIndexer } from '../packages/index.js';
import { MATCHING_JOB } from './scanning.routes.js';
import { Scanner } from './scanning.scanner.js';

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
] as const satisfies readonly TableName[];

/**
 * Starts the scanner: each version the catalogue records is matched at once, and a job sweeps
 * the whole catalogue every quarter of an hour and after each import of advisories, so that what
 * a restart interrupted or new advisories concern is matched too.
 */
export function registerScanning(app: FastifyInstance, scanner: Scanner, catalogue: CatalogueIndexer): void {
  catalogue.onIndexed((version) => {
    void scanner
      .scan([version])
      .catch((error: unknown) => app.log.warn({ err: error }, 'matching a package version failed'));
  });
  app.jobs.register(MATCHING_JOB, '*/15 * * * *', async () => {
    await scanner.sweep();
  });
}

/** The scanner of this process (what the door asks for the advisories a client's audit concerns). */
export const createScanner = (app: FastifyInstance) => new Scanner(app);
