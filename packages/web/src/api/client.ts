import { normalizeErrorMessages, type FailedCall } from '@arca/contracts';
import { contentLoading } from './content-loading';
import { notifyError } from './notifications';

/** Base of every console call: the spec's paths are mounted below it unchanged. */
export const API_BASE = '/ui/api/v1/';

/** A failed call, with the normalised messages of spec part 2 §8.1. */
export class ApiError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly messages: string[],
    readonly body: unknown,
    /** Whether the messages were already shown as a notification. */
    readonly shown = false,
  ) {
    super(messages.join('\n'));
    this.name = 'ApiError';
  }
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  body?: unknown;
  /** A plain-text body instead of JSON (calls whose body is text holding JSON, as the archive search's). */
  text?: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** Do not show a notification on failure (the caller shows the error itself, or it is log-only). */
  silent?: boolean;
  /** Do not count this call in the content-loading indicator (periodic refreshes). */
  background?: boolean;
  signal?: AbortSignal;
}

function url(path: string, query: ApiOptions['query']): string {
  const target = new URL(API_BASE + path.replace(/^\//, ''), window.location.origin);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) target.searchParams.set(key, String(value));
  }
  return target.pathname + target.search;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The console's one fetch wrapper: sends the CSRF header and the session cookie, counts the call in
 * the content-loading indicator, and turns every failure into an `ApiError` with the normalised
 * messages, shown as a notification unless `silent`.
 */
export async function apiFetch<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const { method = 'GET', body, text, query, silent = false, background = false, signal } = options;
  const headers: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (text !== undefined) headers['Content-Type'] = 'text/plain';
  if (!background) contentLoading.increment();
  try {
    let response: Response;
    try {
      response = await fetch(url(path, query), {
        method,
        headers,
        credentials: 'same-origin',
        body: text ?? (body === undefined ? undefined : JSON.stringify(body)),
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw fail({ noResponse: true, message: (error as Error).message }, undefined, silent);
    }
    const parsed = await readBody(response);
    if (!response.ok) throw fail({ body: parsed, message: response.statusText }, response.status, silent);
    return parsed as T;
  } finally {
    if (!background) contentLoading.decrement();
  }
}

function fail(call: FailedCall, status: number | undefined, silent: boolean): ApiError {
  const error = new ApiError(status, normalizeErrorMessages(call), call.body, !silent);
  if (!silent) notifyError(error.message);
  return error;
}

/**
 * Runs work started from a click, menu or dialog: a failure is shown once as a notification
 * (not again when the call already showed it) and never escapes as an unhandled rejection.
 * Answers whether the work succeeded.
 */
export async function runSafely(work: () => Promise<unknown>): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (error) {
    if (!(error instanceof ApiError && error.shown))
      notifyError(error instanceof Error ? error.message : String(error));
    return false;
  }
}
