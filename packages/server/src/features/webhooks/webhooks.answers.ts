import type { WebhookAttempt, WebhookDelivery } from '@arca/contracts';
import type { AttemptRow, DeliveryRow } from './webhooks.store.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** A delivery as the log answers it. */
export function deliveryAnswer(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    webhookKey: row.webhook_key,
    eventId: row.event_id,
    domain: row.domain,
    eventType: row.event_type,
    state: row.state,
    attempts: Number(row.attempts),
    createdAt: iso(row.created_at)!,
    settledAt: iso(row.settled_at),
    nextAttemptAt: row.state === 'pending' ? iso(row.next_attempt_at) : null,
    lastStatus: row.last_status,
    lastError: row.last_error,
    url: row.url,
  };
}

/** An attempt as the log answers it: the request as sent, the receiver's answer. */
export function attemptAnswer(row: AttemptRow): WebhookAttempt {
  return {
    id: row.id,
    attempt: Number(row.attempt),
    at: iso(row.at)!,
    durationMs: Number(row.duration_ms),
    status: row.status,
    error: row.error,
    request: JSON.parse(row.request) as WebhookAttempt['request'],
    response: row.response ? (JSON.parse(row.response) as NonNullable<WebhookAttempt['response']>) : null,
  };
}
