import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Event types written to the outbox. */
export type EventType =
  | 'artifact.deployed'
  | 'artifact.deleted'
  | 'artifact.moved'
  | 'artifact.copied'
  | 'artifact.restored'
  | 'artifact.property.added'
  | 'artifact.property.deleted'
  | 'repository.created'
  | 'repository.updated'
  | 'repository.deleted';

let counter = 0;

/**
 * Writes an event in the caller's transaction, so that the change and its event commit together.
 * `seq` orders events: milliseconds times 1000 plus a per-process counter.
 */
export async function recordEvent(
  trx: Kysely<Database>,
  event: { type: EventType; repoKey?: string; path?: string; actor: string; payload?: Record<string, unknown> },
): Promise<void> {
  const now = Date.now();
  counter = (counter + 1) % 1000;
  await trx
    .insertInto('events')
    .values({
      id: randomUUID(),
      seq: now * 1000 + counter,
      type: event.type,
      repo_key: event.repoKey ?? null,
      path: event.path ?? null,
      payload: JSON.stringify(event.payload ?? {}),
      actor: event.actor,
      created_at: now,
    })
    .execute();
}
