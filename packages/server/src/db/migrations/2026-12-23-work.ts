import type { Kysely } from 'kysely';

/**
 * The durable-work kernel's tasks, shared by every node: each is held under a lease that its
 * holder renews while it runs, and any node takes over one whose lease ran out. Repository
 * deletions, the scheduled jobs' runs, the archive runs and the makings of derived files move onto
 * it (their progress and history are the task's), and their own tables and leases go.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('work_tasks')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('task_key', 'varchar(500)', (c) => c.notNull())
    .addColumn('serial_key', 'varchar(500)')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('progress', 'text')
    .addColumn('result', 'text')
    .addColumn('message', 'text')
    .addColumn('holder', 'varchar(200)', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('run_after', 'bigint', (c) => c.notNull())
    .addColumn('stop_requested', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('work_tasks_kind_key').unique().on('work_tasks').columns(['kind', 'task_key']).execute();
  await db.schema.createIndex('work_tasks_due').on('work_tasks').columns(['state', 'run_after']).execute();
  await db.schema.createIndex('work_tasks_serial').on('work_tasks').columns(['serial_key', 'created_at']).execute();
  await db.schema
    .createTable('work_history')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('task_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('node', 'varchar(200)', (c) => c.notNull())
    .addColumn('event', 'varchar(32)', (c) => c.notNull())
    .addColumn('message', 'text')
    .execute();
  await db.schema.createIndex('work_history_task').on('work_history').columns(['task_id', 'at']).execute();

  // the deletions under way or recorded carry over as tasks, their progress with them
  const deletions = await db.selectFrom('repository_deletions').selectAll().execute();
  for (const row of deletions as Record<string, unknown>[]) {
    const now = Date.now();
    const state = row.state === 'running' ? 'queued' : row.state;
    await db
      .insertInto('work_tasks')
      .values({
        id: `deletion-${String(row.repo_key)}`,
        kind: 'repository-deletion',
        task_key: row.repo_key,
        serial_key: null,
        payload: JSON.stringify({
          actor: row.actor,
          sourceIp: row.source_ip,
          files: Number(row.files),
          bytes: Number(row.bytes),
        }),
        state,
        attempts: 0,
        max_attempts: 1,
        progress: JSON.stringify({ deletedFiles: Number(row.deleted_files), deletedBytes: Number(row.deleted_bytes) }),
        result: null,
        message: row.message ?? null,
        holder: '',
        lease_until: 0,
        run_after: now,
        stop_requested: 0,
        created_at: Number(row.started_at),
        started_at: Number(row.started_at),
        ended_at: state === 'queued' ? null : Number(row.updated_at),
        updated_at: now,
      })
      .execute();
  }
  await db.schema.dropTable('repository_deletions').execute();

  // the scheduled jobs' runs are tasks too (the job's name their serial key); their leases go
  const runs = (await db.selectFrom('job_runs').selectAll().execute()) as Record<string, unknown>[];
  for (let i = 0; i < runs.length; i += 200) {
    await db
      .insertInto('work_tasks')
      .values(
        runs.slice(i, i + 200).map((run) => {
          const ended = run.outcome !== 'running';
          return {
            id: run.id,
            kind: 'job',
            task_key: `${String(run.job)}@run-${String(run.id)}`,
            serial_key: `job:${String(run.job)}`,
            payload: JSON.stringify({ name: run.job }),
            // a run recorded as running was cut by a stop: it failed
            state: run.outcome === 'success' ? 'done' : 'failed',
            attempts: 1,
            max_attempts: 1,
            progress: null,
            result: null,
            message: ended ? (run.message ?? null) : 'the node stopped during the run',
            holder: run.node,
            lease_until: 0,
            run_after: Number(run.started_at),
            stop_requested: 0,
            created_at: Number(run.started_at),
            started_at: Number(run.started_at),
            ended_at: ended ? Number(run.ended_at) : Number(run.started_at),
            updated_at: ended ? Number(run.ended_at) : Number(run.started_at),
          };
        }),
      )
      .execute();
  }
  await db.schema.dropTable('job_runs').execute();
  await db.schema.dropTable('job_leases').execute();

  // an archive or restore run under way goes on as a task (any node takes it), its own lease goes
  const active = (await db
    .selectFrom('archive_executions')
    .select(['id', 'started_at'])
    .where('state', 'in', ['PENDING', 'TRIGGERED', 'IN_PROGRESS', 'IN_PROGRESS_WITH_ERRORS', 'STOPPING'])
    .execute()) as { id: string; started_at: number }[];
  for (const run of active) {
    const now = Date.now();
    await db
      .insertInto('work_tasks')
      .values({
        id: run.id,
        kind: 'archive-run',
        task_key: run.id,
        serial_key: null,
        payload: 'null',
        state: 'queued',
        attempts: 0,
        max_attempts: 1,
        progress: null,
        result: null,
        message: null,
        holder: '',
        lease_until: 0,
        run_after: now,
        stop_requested: 0,
        created_at: Number(run.started_at),
        started_at: null,
        ended_at: null,
        updated_at: now,
      })
      .execute();
  }
  await db.schema.alterTable('archive_executions').dropColumn('holder').execute();
  await db.schema.alterTable('archive_executions').dropColumn('lease_until').execute();
  // the making of a key's files is a task too: a making under way when this runs is made again
  await db.schema.dropTable('made_claims').execute();
}
