import { createHmac } from 'node:crypto';
import { WEBHOOK_SIGNATURE_HEADER, type WebhookHandler } from '@arca/contracts';
import { OutboundRefused, outboundRequest, type OutboundProxy, type OutboundTls } from '../../core/outbound.js';

/** Request and response bodies are kept up to this size in the delivery log. */
export const LOG_BODY_BYTES = 16 * 1024;
/** How long one attempt may take in all, connection to the last byte of the answer. */
export const ATTEMPT_TIMEOUT_MS = 15_000;

/** What one attempt sent and got. */
export interface Exchange {
  request: { url: string; headers: Record<string, string>; body: string };
  response: { headers: Record<string, string>; body: string } | null;
  status: number | null;
  error: string | null;
  durationMs: number;
  /** When the attempt ended (epoch ms). */
  at: number;
}

const cut = (text: string) =>
  Buffer.byteLength(text) <= LOG_BODY_BYTES
    ? text
    : `${Buffer.from(text).subarray(0, LOG_BODY_BYTES).toString('utf8')}…`;

/**
 * The headers a handler sends with a body: JSON, the event's id, the secret — as is in
 * `X-JFrog-Event-Auth`, or with `use_secret_for_signing` the body's HMAC-SHA256 (hex) there
 * instead — and the handler's own headers.
 */
export function headersFor(handler: WebhookHandler, body: string, eventId: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Arca-Webhooks/1',
    'x-arca-event-id': eventId,
  };
  if (handler.secret) {
    headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] = handler.use_secret_for_signing
      ? createHmac('sha256', handler.secret).update(body).digest('hex')
      : handler.secret;
  }
  for (const { name, value } of handler.custom_http_headers) headers[name.toLowerCase()] = value;
  return headers;
}

/** Headers as the log shows them: the secret or signature is not kept in clear. */
function loggedHeaders(headers: Record<string, string>, handler: WebhookHandler): Record<string, string> {
  const shown = { ...headers };
  const auth = WEBHOOK_SIGNATURE_HEADER.toLowerCase();
  if (shown[auth] !== undefined && !handler.use_secret_for_signing) shown[auth] = '**********';
  return shown;
}

/**
 * Posts a body to a handler under the outbound policy (no loopback or link-local address unless
 * allowed, checked on the resolved address and every redirect), within ATTEMPT_TIMEOUT_MS.
 * Never throws: what happened is in the exchange.
 */
export async function post(
  handler: WebhookHandler,
  body: string,
  eventId: string,
  allowed: readonly string[],
  proxy?: OutboundProxy,
  tls?: OutboundTls,
): Promise<Exchange> {
  const headers = headersFor(handler, body, eventId);
  const request = { url: handler.url, headers: loggedHeaders(headers, handler), body: cut(body) };
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  try {
    const answer = await outboundRequest(handler.url, {
      method: 'POST',
      headers,
      body,
      allowed,
      proxy,
      tls,
      timeouts: { connectMs: 5_000, firstByteMs: ATTEMPT_TIMEOUT_MS, idleMs: ATTEMPT_TIMEOUT_MS },
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    const ok = answer.status >= 200 && answer.status < 300;
    return {
      request,
      response: { headers: answer.headers, body: cut(answer.body) },
      status: answer.status,
      error: ok ? null : `The receiver answered ${answer.status}.`,
      durationMs: took(),
      at: Date.now(),
    };
  } catch (error) {
    const message =
      error instanceof OutboundRefused
        ? error.message
        : error instanceof Error && error.name === 'TimeoutError'
          ? `The receiver did not answer within ${ATTEMPT_TIMEOUT_MS / 1000} s.`
          : `The receiver could not be reached: ${describe(error)}`;
    return { request, response: null, status: null, error: message, durationMs: took(), at: Date.now() };
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return error instanceof Error ? error.message : String(error);
}
