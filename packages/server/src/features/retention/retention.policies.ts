import { Cron } from 'croner';
import type { archivePolicyBodySchema } from '@arca/contracts';
import {
  RETENTION_KEY_PATTERN,
  RETENTION_MESSAGES,
  formatMessage,
  searchCriteriaFormSchema,
  type ArchivePolicy,
  type PreviewAnswer,
} from '@arca/contracts';
import type { z } from 'zod';
import { isPostgres, type Db } from '../../db/database.js';
import type { ArchivePoliciesTable } from '../../db/schema.js';
import { HttpError, badRequest, conflict, notFound } from '../../core/errors.js';
import { recordChange, type ChangeActor } from '../../core/changes.js';
import { checkForm, formToAql, matchingFiles, parsePolicyAql } from './retention.criteria.js';
import { ACTIVE_STATES, executionView, lastExecutionOf } from './retention.runs.js';

const fill = formatMessage;
type PolicyBody = z.output<typeof archivePolicyBodySchema>;

/** The next runs of a cron expression (Quartz's 6 and 7 fields, `?`, `L`, `W`, `#` as well as 5 fields). */
export function nextRuns(expression: string, count: number, from = new Date()): number[] {
  if (!expression.trim()) throw badRequest(RETENTION_MESSAGES.cronEmpty);
  let cron: Cron;
  try {
    cron = new Cron(expression.trim(), { paused: true });
  } catch {
    throw badRequest(RETENTION_MESSAGES.cronInvalid);
  }
  const runs = cron.nextRuns(count, from).map((d) => d.getTime());
  cron.stop();
  // an expression that never fires again (a year long past) schedules nothing
  if (!runs.length) throw badRequest(RETENTION_MESSAGES.cronInvalid);
  return runs;
}

/** A replication's schedule may not fire more often than every minute: checked when `isReplication`. */
export function checkCron(expression: string, isReplication: boolean): number[] {
  const runs = nextRuns(expression, 5);
  if (isReplication && runs.length > 1 && runs[1]! - runs[0]! < 60_000)
    throw badRequest(RETENTION_MESSAGES.cronInvalid);
  return runs;
}

function checkKey(key: string): void {
  if (!key) throw badRequest(RETENTION_MESSAGES.keyRequired);
  if (!RETENTION_KEY_PATTERN.test(key)) throw badRequest(RETENTION_MESSAGES.keyFormat);
}

/**
 * A policy's query: the form's, converted (and the form checked), or its AQL. A policy that was
 * written in AQL stays so (spec part 1 §4: the switch is one way).
 */
export async function queryOf(
  db: Db,
  body: Pick<PolicyBody, 'aqlQuery' | 'searchCriteriaForm'>,
  existing?: ArchivePoliciesTable,
): Promise<{ aql: string; form: string | null }> {
  if (body.searchCriteriaForm) {
    if (existing && existing.search_criteria === null) throw badRequest(RETENTION_MESSAGES.aqlOneWay);
    const form = searchCriteriaFormSchema.parse(body.searchCriteriaForm);
    await checkForm(db, form);
    return { aql: formToAql(form), form: JSON.stringify(form) };
  }
  if (body.aqlQuery?.trim()) {
    parsePolicyAql(body.aqlQuery);
    // compiled once now, so that a field or operator it does not know is refused on saving
    await matchingFiles(db, body.aqlQuery);
    return { aql: body.aqlQuery.trim(), form: null };
  }
  throw badRequest(RETENTION_MESSAGES.criteriaMissing);
}

export async function findPolicy(db: Db, key: string): Promise<ArchivePoliciesTable | undefined> {
  return db.selectFrom('archive_policies').selectAll().where('key', '=', key).executeTakeFirst();
}

export async function getPolicy(db: Db, key: string): Promise<ArchivePoliciesTable> {
  const row = await findPolicy(db, key);
  if (!row) throw notFound(fill(RETENTION_MESSAGES.notFound, { key }));
  return row;
}

/** A policy as answered, with its last run. */
export async function policyView(db: Db, row: ArchivePoliciesTable): Promise<ArchivePolicy> {
  const last = await lastExecutionOf(db, row.key);
  return {
    key: row.key,
    description: row.description,
    cronExp: row.cron_exp,
    enabled: row.enabled === 1,
    expirationTimeInMonths: row.expiration_months,
    durationInMinutes: row.duration_minutes,
    skipTrashcan: row.skip_trashcan === 1,
    aqlQuery: row.aql_query,
    searchCriteriaForm: row.search_criteria ? searchCriteriaFormSchema.parse(JSON.parse(row.search_criteria)) : null,
    basis: row.search_criteria ? 'form' : 'aql',
    nextExecutionTime: row.enabled === 1 && row.next_execution_time !== null ? Number(row.next_execution_time) : null,
    lastRunStatus: last ? executionView(last) : null,
    createdBy: row.created_by,
    created: Number(row.created_at),
    modified: Number(row.updated_at),
  };
}

export async function listPolicies(db: Db): Promise<ArchivePolicy[]> {
  const rows = await db.selectFrom('archive_policies').selectAll().orderBy('key').execute();
  return Promise.all(rows.map((row) => policyView(db, row)));
}

/**
 * Creates (`create`) or updates a policy, checked whole before anything is written: its name,
 * schedule and query; an update of a running policy is refused, as Artifactory refuses it.
 */
export async function savePolicy(
  db: Db,
  who: ChangeActor,
  body: PolicyBody,
  mode: { create: true } | { create: false; key: string },
): Promise<ArchivePolicy> {
  const key = body.key;
  checkKey(key);
  if (!mode.create && mode.key !== key) throw badRequest(fill(RETENTION_MESSAGES.keyMismatch, { key, path: mode.key }));
  const [next] = nextRuns(body.cronExp, 1);
  const now = Date.now();
  const row = await db.transaction().execute(async (trx) => {
    let query = trx.selectFrom('archive_policies').selectAll().where('key', '=', key);
    if (isPostgres(trx)) query = query.forUpdate();
    const existing = await query.executeTakeFirst();
    if (mode.create && existing) throw conflict(fill(RETENTION_MESSAGES.keyExists, { key }));
    if (!mode.create && !existing) throw notFound(fill(RETENTION_MESSAGES.notFound, { key }));
    if (existing && (await activeExecution(trx, key))) throw conflict(fill(RETENTION_MESSAGES.running, { key }));
    const { aql, form } = await queryOf(trx, body, existing);
    const values: ArchivePoliciesTable = {
      key,
      description: body.description,
      cron_exp: body.cronExp.trim(),
      enabled: body.enabled ? 1 : 0,
      expiration_months: body.expirationTimeInMonths,
      duration_minutes: body.durationInMinutes,
      skip_trashcan: body.skipTrashcan ? 1 : 0,
      aql_query: aql,
      search_criteria: form,
      next_execution_time: next ?? null,
      created_at: existing ? Number(existing.created_at) : now,
      created_by: existing?.created_by ?? who.actor,
      updated_at: now,
    };
    if (existing) {
      const { key: _key, created_at: _at, created_by: _by, ...changes } = values;
      await trx.updateTable('archive_policies').set(changes).where('key', '=', key).execute();
    } else await trx.insertInto('archive_policies').values(values).execute();
    await recordChange(trx, who, {
      audit: {
        category: 'system',
        action: existing ? 'retention.policy.updated' : 'retention.policy.created',
        target: key,
        after: { ...values, search_criteria: form ? JSON.parse(form) : null },
      },
    });
    return values;
  });
  return policyView(db, row);
}

export async function deletePolicy(db: Db, who: ChangeActor, key: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const existing = await getPolicy(trx, key);
    if (await activeExecution(trx, key)) throw conflict(fill(RETENTION_MESSAGES.running, { key }));
    await trx.deleteFrom('archive_policies').where('key', '=', key).execute();
    await recordChange(trx, who, {
      audit: { category: 'system', action: 'retention.policy.deleted', target: key, before: existing },
    });
  });
}

/** The run of a policy under way, if any. */
export async function activeExecution(db: Db, key: string) {
  return db
    .selectFrom('archive_executions')
    .selectAll()
    .where('policy_key', '=', key)
    .where('kind', '=', 'archive')
    .where('state', 'in', ACTIVE_STATES)
    .executeTakeFirst();
}

/** What a policy (saved or being edited) takes now: the count, the bytes and a page of the files. */
export async function previewPolicy(
  db: Db,
  body: Pick<PolicyBody, 'aqlQuery' | 'searchCriteriaForm'>,
  page: { offset: number; limit: number },
): Promise<PreviewAnswer> {
  const { aql } = await queryOf(db, body);
  const now = Date.now();
  const base = await matchingFiles(db, aql, now);
  const totals = await base
    .select((eb) => [
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.sum<number | string | null>('i.size').as('bytes'),
    ])
    .executeTakeFirstOrThrow();
  const rows = await (
    await matchingFiles(db, aql, now)
  )
    .select(['i.repo_key', 'i.path', 'i.name', 'i.size', 'i.created_at', 'i.last_downloaded', 'i.download_count'])
    .orderBy('i.repo_key')
    .orderBy('i.path')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return {
    count: Number(totals.n),
    totalSize: Number(totals.bytes ?? 0),
    aqlQuery: aql,
    offset: page.offset,
    limit: page.limit,
    items: rows.map((r) => ({
      repoKey: r.repo_key,
      path: r.path,
      name: r.name,
      size: Number(r.size),
      created: Number(r.created_at),
      lastDownloaded: r.last_downloaded === null ? null : Number(r.last_downloaded),
      downloadCount: Number(r.download_count ?? 0),
    })),
  };
}

/** Refuses a trigger of a disabled policy, as Artifactory blocks it. */
export function checkRunnable(policy: ArchivePoliciesTable): void {
  if (policy.enabled !== 1) throw new HttpError(409, fill(RETENTION_MESSAGES.disabled, { key: policy.key }));
}
