import { EXECUTION_DISPLAY, OPERATION_LABELS, type Execution, type ExecutionItem } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { ArchiveExecutionsTable } from '../../db/schema.js';

/*
 * Archive and restore runs as every node reads them: their states, the console's view of a run,
 * the lists of runs and of a run's items (`retention.executions.ts` runs them).
 */

/** States of a run under way: only one per policy. */
export const ACTIVE_STATES: ArchiveExecutionsTable['state'][] = [
  'PENDING',
  'TRIGGERED',
  'IN_PROGRESS',
  'IN_PROGRESS_WITH_ERRORS',
  'STOPPING',
];

/** A run as the console shows it. */
export function executionView(row: ArchiveExecutionsTable): Execution {
  return {
    migrationIdentifier: row.id,
    operation: row.kind,
    label: OPERATION_LABELS[row.kind],
    policyName: row.policy_key,
    state: row.state,
    displayState: EXECUTION_DISPLAY[row.state],
    total: Number(row.total),
    done: Number(row.done),
    failed: Number(row.failed),
    skipped: Number(row.skipped),
    bytes: Number(row.bytes),
    message: row.message,
    startedAt: Number(row.started_at),
    endedAt: row.ended_at === null ? null : Number(row.ended_at),
    startedBy: row.actor,
  };
}

export async function lastExecutionOf(db: Db, key: string): Promise<ArchiveExecutionsTable | undefined> {
  return db
    .selectFrom('archive_executions')
    .selectAll()
    .where('policy_key', '=', key)
    .where('kind', '=', 'archive')
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Runs of one kind that started between `from` and `to` (epoch ms), newest first, and every one still under way. */
export async function listExecutions(
  db: Db,
  kind: 'archive' | 'restore',
  from: number,
  to: number,
): Promise<Execution[]> {
  const rows = await db
    .selectFrom('archive_executions')
    .selectAll()
    .where('kind', '=', kind)
    .where((eb) =>
      eb.or([eb.and([eb('started_at', '>=', from), eb('started_at', '<=', to)]), eb('state', 'in', ACTIVE_STATES)]),
    )
    .orderBy('started_at', 'desc')
    .limit(1000)
    .execute();
  return rows.map(executionView);
}

export async function executionItems(
  db: Db,
  id: string,
  state: ExecutionItem['state'] | undefined,
  page: { offset: number; limit: number },
): Promise<{ items: ExecutionItem[]; total: number }> {
  let query = db.selectFrom('archive_execution_items').where('execution_id', '=', id);
  if (state) query = query.where('state', '=', state);
  const total = await query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .select(['repo_key', 'path', 'size', 'state', 'error'])
    .orderBy('seq')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return {
    total: Number(total.n),
    items: rows.map((r) => ({
      repoKey: r.repo_key,
      path: r.path,
      size: Number(r.size),
      state: r.state,
      error: r.error,
    })),
  };
}

/** Where a restore puts items (spec part 1 §3). */
export interface RestoreOptions {
  restoreToOriginal: boolean;
  fallbackDestinationPath: string;
  centralDestinationPath: string;
}

/** `<repository>/<folder>` split; undefined when there is no repository. */
export function destinationOf(text: string): { repoKey: string; folder: string } | undefined {
  const clean = text.trim().replace(/^\/+|\/+$/g, '');
  if (!clean) return undefined;
  const slash = clean.indexOf('/');
  return slash < 0
    ? { repoKey: clean, folder: '' }
    : { repoKey: clean.slice(0, slash), folder: clean.slice(slash + 1) };
}
