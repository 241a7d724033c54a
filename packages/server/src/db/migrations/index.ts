import type { Migration } from 'kysely';
import * as foundation from './2026-11-22-foundation.js';
import * as repositories from './2026-11-22-repositories.js';
/** Names sort alphabetically: keep each new one after the last. */
import * as security from './2026-11-22-security.js';

/** Every migration, in order. Names sort by their date prefix. */
export const migrations: Record<string, Migration> = {
  '2026-11-22-foundation': foundation,
  '2026-11-22-repositories': repositories,
  '2026-11-22-security': security,
};
