import { v7 as uuidv7 } from 'uuid';
import { RETENTION_MESSAGES, formatMessage, type Execution, type ExecutionState } from '@arca/contracts';
import { isPostgres } from '../../db/database.js';
import type { ArchiveExecutionsTable, ArchivePoliciesTable, ArchivedItemsTable } from '../../db/schema.js';
import { HttpError, conflict } from '../../core/errors.js';
import { recordAudit, type ChangeActor } from '../../core/changes.js';
import { TaskLost, type TaskRun } from '../../core/work.js';
import {
  putBackFiles,
  releaseUnusedContents,
  takeOutFiles,
  type IncomingFile,
  type OutgoingFile,
} from '../artifacts/index.js';
import { matchingFiles } from './retention.criteria.js';
import {
  COPIES_AT_ONCE,
  archiveRecords,
  copyContent,
  dropColdReference,
  eachAtOnce,
  insertItems,
  messageOf,
  releaseCold,
  restoreTarget,
  settle,
  settleDone,
  type RunnerContext,
} from './retention.moves.js';
import { ACTIVE_STATES, executionView, type RestoreOptions } from './retention.runs.js';

/*
 * Runs of policies and restores. A run's items are fixed when it starts (the preview's query at
 * that moment) and each is moved in one transaction with its record, so that a run that stops
 * anywhere — stopped, timed out, its node killed — has moved every item once or not at all, and
 * the node that takes it up continues with the items left.
 */

const fill = formatMessage;

/** The durable-work kernel's kind for an archive or restore run; its key is the run's id. */
export const ARCHIVE_RUN = 'archive-run';
/** Items moved between two looks at the run's row (stop asked, hold, deadline). */
const BATCH = 200;
/** Runs and their items are kept this long after they end. */
const KEPT_MS = 90 * 86_400_000;

/**
 * Starts archive and restore runs, each a task of the durable-work kernel: it goes on after the
 * call that started it answers, on this node; its row in the database is what every node reads,
 * and a node that dies leaves it to another, which continues with the items left.
 */
export class ArchiveRunner {
  constructor(private readonly ctx: RunnerContext) {
    ctx.work.define<null, never, null>(ARCHIVE_RUN, { run: (task) => this.runTask(task) });
  }

  /**
   * Starts a run of `policy`: refused while one is under way; its items are chosen now by the
   * policy's query and the run goes on in the background.
   */
  async startArchive(policy: ArchivePoliciesTable, who: ChangeActor, how: 'TRIGGERED' | 'PENDING'): Promise<Execution> {
    const { db } = this.ctx;
    const now = Date.now();
    const id = uuidv7();
    const row: ArchiveExecutionsTable = {
      id,
      kind: 'archive',
      policy_key: policy.key,
      state: how,
      total: 0,
      done: 0,
      failed: 0,
      skipped: 0,
      bytes: 0,
      message: null,
      options: null,
      stop_requested: 0,
      deadline: policy.duration_minutes > 0 ? now + policy.duration_minutes * 60_000 : null,
      actor: who.actor,
      source_ip: who.sourceIp,
      started_at: now,
      ended_at: null,
      updated_at: now,
    };
    await db.transaction().execute(async (trx) => {
      let lock = trx.selectFrom('archive_policies').select('key').where('key', '=', policy.key);
      if (isPostgres(trx)) lock = lock.forUpdate();
      if (!(await lock.executeTakeFirst()))
        throw new HttpError(404, fill(RETENTION_MESSAGES.notFound, { key: policy.key }));
      const active = await trx
        .selectFrom('archive_executions')
        .select('id')
        .where('policy_key', '=', policy.key)
        .where('kind', '=', 'archive')
        .where('state', 'in', ACTIVE_STATES)
        .executeTakeFirst();
      if (active) throw conflict(fill(RETENTION_MESSAGES.running, { key: policy.key }));
      await trx.insertInto('archive_executions').values(row).execute();
      await recordAudit(trx, who, {
        category: 'system',
        action: 'retention.policy.triggered',
        target: policy.key,
        message: how === 'TRIGGERED' ? 'run asked for' : 'run on schedule',
      });
    });
    await this.ctx.work.submit(ARCHIVE_RUN, null, { key: id, runHere: true });
    return executionView(row);
  }

  /** Starts a restore of archived items (by `{repoKey, path}`); unknown ones are refused before anything starts. */
  async startRestore(
    items: { repoKey: string; path: string }[],
    options: RestoreOptions,
    who: ChangeActor,
  ): Promise<Execution> {
    const { db } = this.ctx;
    const found: ArchivedItemsTable[] = [];
    const seen = new Set<string>();
    for (const wanted of items) {
      const key = `${wanted.repoKey}\u0000${wanted.path}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const row = await db
        .selectFrom('archived_items')
        .selectAll()
        .where('repo_key', '=', wanted.repoKey)
        .where('path', '=', wanted.path.replace(/^\/+/, ''))
        .executeTakeFirst();
      if (!row)
        throw new HttpError(404, fill(RETENTION_MESSAGES.restoreUnknown, { path: `${wanted.repoKey}/${wanted.path}` }));
      found.push(row);
    }
    const now = Date.now();
    const id = uuidv7();
    const row: ArchiveExecutionsTable = {
      id,
      kind: 'restore',
      policy_key: null,
      state: 'IN_PROGRESS',
      total: found.length,
      done: 0,
      failed: 0,
      skipped: 0,
      bytes: 0,
      message: null,
      options: JSON.stringify(options),
      stop_requested: 0,
      deadline: null,
      actor: who.actor,
      source_ip: who.sourceIp,
      started_at: now,
      ended_at: null,
      updated_at: now,
    };
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('archive_executions').values(row).execute();
      await insertItems(
        trx,
        id,
        found.map((f) => ({ id: f.id, repo_key: f.repo_key, path: f.path, sha256: f.sha256, size: Number(f.size) })),
      );
      await recordAudit(trx, who, {
        category: 'system',
        action: 'retention.restore.started',
        target: found.length === 1 ? `${found[0]!.repo_key}/${found[0]!.path}` : `${found.length} items`,
        after: options,
      });
    });
    await this.ctx.work.submit(ARCHIVE_RUN, null, { key: id, runHere: true });
    return executionView(row);
  }

  /** Asks a policy's run to stop: it does after the item it is moving (STOPPING, then STOPPED_BY_USER). */
  async stopPolicy(key: string, who: ChangeActor): Promise<void> {
    const { db } = this.ctx;
    const stopped = await db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('archive_executions')
        .set({ stop_requested: 1, state: 'STOPPING', updated_at: Date.now() })
        .where('policy_key', '=', key)
        .where('kind', '=', 'archive')
        .where('state', 'in', ACTIVE_STATES)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await recordAudit(trx, who, { category: 'system', action: 'retention.policy.stopped', target: key });
      return true;
    });
    if (!stopped) throw conflict(fill(RETENTION_MESSAGES.notRunning, { key }));
  }

  /** Forgets runs (and their items) ended long ago. */
  async forgetOld(): Promise<void> {
    const { db } = this.ctx;
    const old = await db
      .selectFrom('archive_executions')
      .select('id')
      .where('state', 'not in', ACTIVE_STATES)
      .where('updated_at', '<', Date.now() - KEPT_MS)
      .execute();
    for (const { id } of old) {
      await db.deleteFrom('archive_execution_items').where('execution_id', '=', id).execute();
      await db.deleteFrom('archive_executions').where('id', '=', id).execute();
    }
  }

  /** A run as a task: a failure ends the run FAILED with its reason (a stop or a take-over does not). */
  private async runTask(task: TaskRun<null, never>): Promise<null> {
    try {
      await this.run(task);
    } catch (error) {
      if (task.signal.aborted || error instanceof TaskLost) throw error;
      this.ctx.log.error({ err: error, execution: task.key }, 'an archive run failed');
      await this.ctx.db
        .updateTable('archive_executions')
        .set({
          state: 'FAILED',
          message: (error instanceof Error ? error.message : String(error)).slice(0, 2000),
          ended_at: Date.now(),
          updated_at: Date.now(),
        })
        .where('id', '=', task.key)
        .execute();
      throw error;
    }
    return null;
  }

  /** Renews this node's hold on the run and reads its row; throws `TaskLost` when it is no longer this node's. */
  private async renew(task: TaskRun<null, never>): Promise<ArchiveExecutionsTable | undefined> {
    await task.hold();
    return this.ctx.db
      .selectFrom('archive_executions')
      .selectAll()
      .where('id', '=', task.key)
      .where('state', 'in', ACTIVE_STATES)
      .executeTakeFirst();
  }

  private async run(task: TaskRun<null, never>): Promise<void> {
    const { db } = this.ctx;
    const id = task.key;
    let execution = await this.renew(task);
    if (!execution) return;
    if (execution.kind === 'archive' && (execution.state === 'PENDING' || execution.state === 'TRIGGERED')) {
      await this.chooseItems(execution);
      execution = await this.renew(task);
      if (!execution) return;
    }
    const policy =
      execution.kind === 'archive'
        ? await db
            .selectFrom('archive_policies')
            .selectAll()
            .where('key', '=', execution.policy_key!)
            .executeTakeFirst()
        : undefined;
    for (;;) {
      // this node stops: the kernel hands the run to the next node, which goes on with the items left
      task.signal.throwIfAborted();
      if (execution.stop_requested === 1) return this.end(execution, 'STOPPED_BY_USER', null);
      if (execution.deadline !== null && Date.now() >= Number(execution.deadline)) {
        const left =
          Number(execution.total) - Number(execution.done) - Number(execution.failed) - Number(execution.skipped);
        return this.end(
          execution,
          Number(execution.failed) > 0 ? 'COMPLETE_WITH_ERRORS' : 'COMPLETE',
          `Ended at the policy's duration limit (${policy?.duration_minutes ?? 0} min) with ${left} item(s) left for its next run.`,
        );
      }
      const batch = await db
        .selectFrom('archive_execution_items')
        .selectAll()
        .where('execution_id', '=', id)
        .where('state', '=', 'pending')
        .orderBy('seq')
        .limit(BATCH)
        .execute();
      if (!batch.length) {
        return this.end(execution, Number(execution.failed) > 0 ? 'COMPLETE_WITH_ERRORS' : 'COMPLETE', null);
      }
      if (execution.kind === 'archive') {
        if (!policy)
          return this.end(execution, 'FAILED', fill(RETENTION_MESSAGES.notFound, { key: execution.policy_key! }));
        await this.archiveBatch(execution, policy, batch);
      } else await this.restoreBatch(execution, batch);
      execution = await this.renew(task);
      if (!execution) return;
    }
  }

  /** Chooses a run's items: what the policy's query takes now, in repository and path order. */
  private async chooseItems(execution: ArchiveExecutionsTable): Promise<void> {
    const { db } = this.ctx;
    const policy = await db
      .selectFrom('archive_policies')
      .selectAll()
      .where('key', '=', execution.policy_key!)
      .executeTakeFirst();
    if (!policy) throw new Error(fill(RETENTION_MESSAGES.notFound, { key: execution.policy_key! }));
    const files = await (
      await matchingFiles(db, policy.aql_query)
    )
      .select(['i.id', 'i.repo_key', 'i.path', 'i.sha256', 'i.size'])
      .orderBy('i.repo_key')
      .orderBy('i.path')
      .execute();
    await db.transaction().execute(async (trx) => {
      // a run taken up while it was choosing chooses again
      await trx.deleteFrom('archive_execution_items').where('execution_id', '=', execution.id).execute();
      await insertItems(
        trx,
        execution.id,
        files.map((f) => ({ id: f.id, repo_key: f.repo_key, path: f.path, sha256: f.sha256!, size: Number(f.size) })),
      );
      await trx
        .updateTable('archive_executions')
        .set({ total: files.length, updated_at: Date.now() })
        .where('id', '=', execution.id)
        .execute();
      // a stop asked for meanwhile stays asked for
      await trx
        .updateTable('archive_executions')
        .set({ state: 'IN_PROGRESS' })
        .where('id', '=', execution.id)
        .where('state', 'in', ['PENDING', 'TRIGGERED'])
        .execute();
    });
  }

  private async archiveBatch(
    execution: ArchiveExecutionsTable,
    policy: ArchivePoliciesTable,
    batch: { seq: number; item_id: string; sha256: string; size: number; repo_key: string; path: string }[],
  ): Promise<void> {
    const { db, hot, cold } = this.ctx;
    // what no longer meets the policy (a property set, a download since the run began) stays
    const still = new Set(
      (
        await (
          await matchingFiles(db, policy.aql_query, Date.now(), { fewItems: true })
        )
          .select('i.id')
          .where(
            'i.id',
            'in',
            batch.map((b) => b.item_id),
          )
          .execute()
      ).map((r) => r.id),
    );
    // each content once, however many of the batch's files use it
    const contents = new Map(batch.filter((e) => still.has(e.item_id)).map((e) => [e.sha256, Number(e.size)]));
    const failures = new Map<string, string>();
    await eachAtOnce([...contents], COPIES_AT_ONCE, async ([sha256, size]) => {
      const failure = await copyContent(hot, cold, sha256, size).catch(messageOf);
      if (failure) failures.set(sha256, failure);
    });
    const now = Date.now();
    const run = {
      execution,
      policy,
      now,
      expires: policy.expiration_months > 0 ? now + policy.expiration_months * 30 * 86_400_000 : null,
    };
    const movable: typeof batch = [];
    for (const entry of batch) {
      const failure = failures.get(entry.sha256);
      if (!still.has(entry.item_id))
        await this.settleItem(execution.id, entry.seq, 'skipped', 'It no longer meets the policy.');
      else if (failure) await this.settleItem(execution.id, entry.seq, 'failed', failure);
      else movable.push(entry);
    }
    const bySeq = new Map(movable.map((entry) => [entry.item_id, entry.seq]));
    const coldReleased: string[] = [];
    const options = { actor: execution.actor, toTrash: policy.skip_trashcan !== 1 };
    const move = (entries: typeof batch) =>
      takeOutFiles(
        db,
        entries.map((e) => ({ id: e.item_id, sha256: e.sha256 })),
        options,
        async (trx, files) => {
          coldReleased.push(...(await archiveRecords(trx, files, run)));
          await settleDone(
            trx,
            execution.id,
            files.map((f) => ({ seq: bySeq.get(f.id)!, bytes: f.size })),
          );
        },
      );
    let moved: OutgoingFile[] = [];
    try {
      // the whole batch in one transaction; a failure there is found item by item
      moved = await move(movable);
    } catch {
      for (const entry of movable) {
        try {
          moved.push(...(await move([entry])));
        } catch (error) {
          await this.settleItem(execution.id, entry.seq, 'failed', messageOf(error));
        }
      }
    }
    const left = new Set(moved.map((f) => f.id));
    for (const entry of movable) {
      if (!left.has(entry.item_id)) {
        await this.settleItem(
          execution.id,
          entry.seq,
          'skipped',
          'It was changed or removed since the run began.',
        ).catch(() => undefined);
      }
    }
    if (policy.skip_trashcan === 1)
      await releaseUnusedContents(
        { db, store: hot },
        moved.map((f) => f.sha256),
        this.ctx.releaseGraceMs,
      );
    await releaseCold(this.ctx, coldReleased);
  }

  private async restoreBatch(
    execution: ArchiveExecutionsTable,
    batch: { seq: number; item_id: string; sha256: string; size: number }[],
  ): Promise<void> {
    const { db, hot, cold } = this.ctx;
    const options = JSON.parse(execution.options ?? '{}') as RestoreOptions;
    const rows = new Map(
      (
        await db
          .selectFrom('archived_items')
          .selectAll()
          .where(
            'id',
            'in',
            batch.map((b) => b.item_id),
          )
          .execute()
      ).map((row) => [row.id, row]),
    );
    type Coming = IncomingFile & { seq: number; archived: ArchivedItemsTable };
    const coming: Coming[] = [];
    for (const entry of batch) {
      const archived = rows.get(entry.item_id);
      if (!archived) {
        await this.settleItem(execution.id, entry.seq, 'skipped', 'It is no longer in the archive.');
        continue;
      }
      const target = await restoreTarget(db, archived, options);
      if ('refusal' in target) {
        await this.settleItem(execution.id, entry.seq, 'failed', target.refusal);
        continue;
      }
      coming.push({
        seq: entry.seq,
        archived,
        target,
        open: () => cold.read(archived.sha256),
        sha256: archived.sha256,
        size: Number(archived.size),
        properties: JSON.parse(archived.properties) as Record<string, string[]>,
        createdAt: Number(archived.created_at),
        createdBy: archived.created_by,
      });
    }
    const released: string[] = [];
    const putBack = (files: Coming[]) =>
      putBackFiles({ db, store: hot }, files, execution.actor, async (trx, placed) => {
        if (!placed.length) return;
        const removed = await trx
          .deleteFrom('archived_items')
          .where(
            'id',
            'in',
            placed.map((f) => f.archived.id),
          )
          .executeTakeFirst();
        if (Number(removed.numDeletedRows) !== placed.length) throw new Error('It was restored meanwhile.');
        for (const file of placed) await dropColdReference(trx, file.sha256);
        await settleDone(
          trx,
          execution.id,
          placed.map((f) => ({ seq: f.seq, bytes: f.size })),
        );
      });
    const settleRefused = async (refused: { file: Coming; message: string }[]) => {
      for (const { file, message } of refused) await this.settleItem(execution.id, file.seq, 'failed', message);
    };
    try {
      // the whole batch in one transaction; a failure there is found item by item
      const { placed, refused } = await putBack(coming);
      released.push(...placed.map((f) => f.sha256));
      await settleRefused(refused);
    } catch {
      for (const file of coming) {
        try {
          const { placed, refused } = await putBack([file]);
          released.push(...placed.map((f) => f.sha256));
          await settleRefused(refused);
        } catch (error) {
          await this.settleItem(execution.id, file.seq, 'failed', messageOf(error));
        }
      }
    }
    await releaseCold(this.ctx, released);
  }

  private async settleItem(id: string, seq: number, state: 'skipped' | 'failed', message: string): Promise<void> {
    await this.ctx.db.transaction().execute((trx) => settle(trx, id, seq, state, message, 0));
  }

  private async end(execution: ArchiveExecutionsTable, state: ExecutionState, message: string | null): Promise<void> {
    const now = Date.now();
    await this.ctx.db
      .updateTable('archive_executions')
      .set({ state, message, ended_at: now, updated_at: now })
      .where('id', '=', execution.id)
      .execute();
    this.ctx.log.info(
      { execution: execution.id, policy: execution.policy_key, kind: execution.kind, state },
      'an archive run ended',
    );
  }
}
