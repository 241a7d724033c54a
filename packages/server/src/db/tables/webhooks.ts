/** Webhook subscriptions, their deliveries and each attempt. */

/** A webhook subscription: what it listens to (one domain) and where it sends (its handlers). */
export interface WebhooksTable {
  key: string;
  description: string;
  enabled: number;
  domain: string;
  /** JSON array of the domain's event types. */
  event_types: string;
  /** JSON object: the domain's criteria (repositories and paths, or builds). */
  criteria: string;
  /** JSON array of handlers; each secret sealed for the webhook's key. */
  handlers: string;
  created_at: number;
  created_by: string;
  updated_at: number;
}

/** One event to send to one handler of a webhook, in the order of the events per handler. */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_key: string;
  handler: number;
  url: string;
  event_id: string;
  event_seq: number;
  domain: string;
  event_type: string;
  /** The body as sent, the same on every attempt. */
  payload: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: number;
  created_at: number;
  settled_at: number | null;
  last_status: number | null;
  last_error: string | null;
}

/** One attempt of a delivery, as sent and as answered (bodies cut at 16 KiB). */
export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  at: number;
  duration_ms: number;
  status: number | null;
  error: string | null;
  /** JSON: url, headers, body. */
  request: string;
  /** JSON: headers, body; null when nothing was answered. */
  response: string | null;
}
