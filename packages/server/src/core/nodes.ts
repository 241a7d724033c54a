import os from 'node:os';
import { NODE_ONLINE_WINDOW_MS, type NodeStatus, type ServiceName } from '@arca/contracts';
import type { Db } from '../db/database.js';
import type { NodeRow } from '../db/schema.js';
import { HttpError } from './errors.js';

/** Offline nodes are forgotten after a week. */
const FORGET_AFTER_MS = 7 * 86_400_000;

export async function registerNode(
  db: Db,
  node: { nodeId: string; version: string; services: ServiceName[] },
  now = Date.now(),
): Promise<void> {
  const row = {
    node_id: node.nodeId,
    host: os.hostname(),
    version: node.version,
    services: JSON.stringify(node.services),
    started_at: now,
    last_heartbeat: now,
    address: null,
  };
  await db
    .insertInto('nodes')
    .values(row)
    .onConflict((oc) => oc.column('node_id').doUpdateSet({ ...row }))
    .execute();
}

/** Records where the other nodes reach this one, once it listens. */
export async function setNodeAddress(db: Db, nodeId: string, address: string): Promise<void> {
  await db.updateTable('nodes').set({ address }).where('node_id', '=', nodeId).execute();
}

/** One node's row, if it is known. */
export function findNode(db: Db, nodeId: string): Promise<NodeRow | undefined> {
  return db.selectFrom('nodes').selectAll().where('node_id', '=', nodeId).executeTakeFirst();
}

/** Whether a node's heartbeat is recent enough to call it Online. */
export function isOnline(row: Pick<NodeRow, 'last_heartbeat'>, now = Date.now()): boolean {
  return now - row.last_heartbeat < NODE_ONLINE_WINDOW_MS;
}

/**
 * Removes a node that stopped from the list (its row; what it held is released by the leases
 * running out). A node still heartbeating is refused, as is an unknown one; `onRemoved` records
 * the change in the same transaction.
 */
export async function removeStoppedNode(
  db: Db,
  nodeId: string,
  onRemoved: (trx: Db, node: NodeRow) => Promise<void>,
  now = Date.now(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const node = await trx.selectFrom('nodes').selectAll().where('node_id', '=', nodeId).executeTakeFirst();
    if (!node) throw new HttpError(404, `Node '${nodeId}' is unknown.`);
    if (isOnline(node, now)) {
      throw new HttpError(409, `Node '${nodeId}' is running; only a node that stopped can be removed.`);
    }
    await trx
      .deleteFrom('nodes')
      .where('node_id', '=', nodeId)
      .where('last_heartbeat', '<', now - NODE_ONLINE_WINDOW_MS)
      .execute();
    await onRemoved(trx, node);
  });
}

export async function heartbeat(db: Db, nodeId: string, now = Date.now()): Promise<void> {
  await db.updateTable('nodes').set({ last_heartbeat: now }).where('node_id', '=', nodeId).execute();
  await db
    .deleteFrom('nodes')
    .where('last_heartbeat', '<', now - FORGET_AFTER_MS)
    .execute();
}

/**
 * A node that stops cleanly shows as Offline at once (its last heartbeat moved just outside the
 * online window) and stays listed, with when it stopped, until it is removed or forgotten.
 */
export async function markNodeStopped(db: Db, nodeId: string, now = Date.now()): Promise<void> {
  await db
    .updateTable('nodes')
    .set({ last_heartbeat: now - NODE_ONLINE_WINDOW_MS - 1 })
    .where('node_id', '=', nodeId)
    .execute();
}

function toStatus(row: NodeRow, now: number): NodeStatus {
  const online = now - row.last_heartbeat < NODE_ONLINE_WINDOW_MS;
  const status = online ? 'Online' : 'Offline';
  const services = JSON.parse(row.services) as string[];
  const micro = Object.fromEntries(
    services.map((name) => [
      name,
      {
        last_heartbeat: new Date(row.last_heartbeat).toISOString(),
        uptime: online ? Math.max(0, Math.floor((now - row.started_at) / 1000)) : 0,
        status,
      } as const,
    ]),
  );
  return {
    node_id: row.node_id,
    service_id: `arca@${row.node_id}`,
    host: row.host,
    version: row.version,
    status,
    started_at: new Date(row.started_at).toISOString(),
    micro_services: micro,
  };
}

/** Every node that registered and has not been removed, by id. */
export function nodeRows(db: Db): Promise<NodeRow[]> {
  return db.selectFrom('nodes').selectAll().orderBy('node_id').execute();
}

export async function listNodes(db: Db, now = Date.now()): Promise<NodeStatus[]> {
  return (await nodeRows(db)).map((row) => toStatus(row, now));
}

/** Services keyed by name with their Online nodes; a service with none is dropped. */
export function servicesMap(nodes: NodeStatus[]): Record<string, NodeStatus[]> {
  const map: Record<string, NodeStatus[]> = {};
  for (const node of nodes) {
    if (node.status !== 'Online') continue;
    for (const [service, state] of Object.entries(node.micro_services)) {
      if (state.status !== 'Online') continue;
      (map[service] ??= []).push(node);
    }
  }
  return map;
}
