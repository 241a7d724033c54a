import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { Policy, Watch } from '@arca/contracts';
import type { IgnoreRule } from './scanning.policies.js';

/** The policies, watches and ignore rules as stored (each kept whole as its REST body). */

export async function listPolicies(
  db: Db,
): Promise<(Policy & { created: number; author: string; modified: number })[]> {
  const rows = await db.selectFrom('scan_policies').selectAll().orderBy('name').execute();
  return rows.map((r) => ({
    name: r.name,
    type: r.type as Policy['type'],
    description: r.description,
    rules: JSON.parse(r.rules) as Policy['rules'],
    created: Number(r.created_at),
    author: r.created_by,
    modified: Number(r.modified_at),
  }));
}

/** Adds a policy, or replaces the one of the same name (`replace`); false when the name is taken / unknown. */
export async function savePolicy(db: Db, policy: Policy, actor: string, replace: boolean): Promise<boolean> {
  const now = Date.now();
  const held = await db.selectFrom('scan_policies').select('name').where('name', '=', policy.name).executeTakeFirst();
  if (replace !== Boolean(held)) return false;
  const values = {
    type: policy.type,
    description: policy.description,
    rules: JSON.stringify(policy.rules),
    modified_at: now,
  };
  if (held) await db.updateTable('scan_policies').set(values).where('name', '=', policy.name).execute();
  else
    await db
      .insertInto('scan_policies')
      .values({ name: policy.name, ...values, created_at: now, created_by: actor })
      .execute();
  return true;
}

export async function deletePolicy(db: Db, name: string): Promise<boolean> {
  const { numDeletedRows } = await db.deleteFrom('scan_policies').where('name', '=', name).executeTakeFirst();
  return numDeletedRows > 0n;
}

export async function listWatches(db: Db): Promise<(Watch & { created: number; author: string; modified: number })[]> {
  const rows = await db.selectFrom('scan_watches').selectAll().orderBy('name').execute();
  return rows.map((r) => ({
    general_data: { name: r.name, description: r.description, active: r.active === 1 },
    project_resources: { resources: JSON.parse(r.resources) as Watch['project_resources']['resources'] },
    assigned_policies: JSON.parse(r.policies) as Watch['assigned_policies'],
    created: Number(r.created_at),
    author: r.created_by,
    modified: Number(r.modified_at),
  }));
}

export async function saveWatch(db: Db, watch: Watch, actor: string, replace: boolean): Promise<boolean> {
  const now = Date.now();
  const { name, description, active } = watch.general_data;
  const held = await db.selectFrom('scan_watches').select('name').where('name', '=', name).executeTakeFirst();
  if (replace !== Boolean(held)) return false;
  const values = {
    description,
    active: active ? 1 : 0,
    resources: JSON.stringify(watch.project_resources.resources),
    policies: JSON.stringify(watch.assigned_policies),
    modified_at: now,
  };
  if (held) await db.updateTable('scan_watches').set(values).where('name', '=', name).execute();
  else
    await db
      .insertInto('scan_watches')
      .values({ name, ...values, created_at: now, created_by: actor })
      .execute();
  return true;
}

export async function deleteWatch(db: Db, name: string): Promise<boolean> {
  const { numDeletedRows } = await db.deleteFrom('scan_watches').where('name', '=', name).executeTakeFirst();
  return numDeletedRows > 0n;
}

export async function listIgnoreRules(db: Db): Promise<(IgnoreRule & { created: number; author: string })[]> {
  const rows = await db.selectFrom('scan_ignore_rules').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    notes: r.notes,
    expiresAt: r.expires_at === null ? null : Number(r.expires_at),
    filters: JSON.parse(r.filters) as IgnoreRule['filters'],
    created: Number(r.created_at),
    author: r.created_by,
  }));
}

export async function addIgnoreRule(db: Db, rule: Omit<IgnoreRule, 'id'>, actor: string): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('scan_ignore_rules')
    .values({
      id,
      notes: rule.notes,
      expires_at: rule.expiresAt,
      filters: JSON.stringify(rule.filters),
      created_at: Date.now(),
      created_by: actor,
    })
    .execute();
  return id;
}

export async function deleteIgnoreRule(db: Db, id: string): Promise<boolean> {
  const { numDeletedRows } = await db.deleteFrom('scan_ignore_rules').where('id', '=', id).executeTakeFirst();
  return numDeletedRows > 0n;
}
