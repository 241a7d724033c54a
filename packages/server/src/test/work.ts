import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { WorkTasksTable } from '../db/schema.js';

/**
 * Writes a task of the durable-work kernel as another node left it: running under `holder`'s
 * lease until `lease_until` (past: that node died). Answers the task's id.
 */
export async function plantTask(
  db: Db,
  task: Pick<WorkTasksTable, 'kind' | 'task_key' | 'holder' | 'lease_until'> &
    Partial<Omit<WorkTasksTable, 'payload'>> & { payload: unknown },
): Promise<string> {
  const startedAt = Date.now() - 60_000;
  const id = task.id ?? randomUUID();
  await db
    .insertInto('work_tasks')
    .values({
      serial_key: null,
      state: 'running',
      attempts: 1,
      max_attempts: 1,
      progress: null,
      result: null,
      message: null,
      run_after: startedAt,
      stop_requested: 0,
      rerun: 0,
      created_at: startedAt,
      started_at: startedAt,
      ended_at: null,
      updated_at: startedAt,
      ...task,
      id,
      payload: JSON.stringify(task.payload),
    })
    .execute();
  return id;
}
