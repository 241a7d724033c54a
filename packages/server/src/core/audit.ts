import type { FastifyRequest } from 'fastify';
import { recordAudit, recordChange, type AuditEntry, type ChangeActor, type OnChange } from './changes.js';
import type { ArcaEvent } from '@arca/contracts';
import type { Db } from '../db/database.js';

/** Who did it and from where: the signed-in user (or the name tried at sign-in) and the client address. */
export function auditActor(request: FastifyRequest, actorOverride?: string): ChangeActor {
  const actor = actorOverride ?? (request.principal?.kind === 'user' ? request.principal.user.name : 'anonymous');
  return { actor, sourceIp: request.ip };
}

export { recordAudit, type AuditEntry };

/**
 * What a route hands a service to record its change inside the service's transaction: the audit
 * entry and the event, built from what the service changed.
 */
export function recordWith<T>(
  request: FastifyRequest,
  build: (trx: Db, result: T) => Promise<Change | Change[]> | Change | Change[],
): OnChange<T> {
  return async (trx, result) => {
    const changes = await build(trx, result);
    for (const change of Array.isArray(changes) ? changes : [changes])
      await recordChange(trx, auditActor(request), change);
  };
}

type Change = { audit?: AuditEntry; event?: ArcaEvent };

/** Shortcut for route handlers whose change has no event: the same one call records it. */
export function audit(request: FastifyRequest, entry: AuditEntry, db: Db = request.server.db): Promise<void> {
  return recordChange(db, auditActor(request), { audit: entry });
}
