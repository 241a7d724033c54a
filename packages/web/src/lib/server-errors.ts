import { useCallback, useState } from 'react';
import { ERROR_MESSAGES } from '@arca/contracts';

/**
 * The messages of a failed call: the server's list; when it gave none (or only the generic
 * text), `fallback` — the spec's text for the action — or else the error's own text.
 */
export function messagesOf(error: unknown, fallback?: string): string[] {
  const messages = (error as { messages?: string[] } | undefined)?.messages;
  const generic = !messages?.length || (messages.length === 1 && messages[0] === ERROR_MESSAGES.default);
  if (!generic) return messages;
  if (fallback) return [fallback];
  return messages?.length ? messages : [error instanceof Error ? error.message : String(error)];
}

/**
 * The server's refusal of a form, kept to show above it as a list (with `ErrorList`): `capture`
 * it from a mutation's error, `clear` it on a new attempt or when the form closes.
 */
export function useServerErrors(fallback?: string) {
  const [errors, setErrors] = useState<string[]>([]);
  const clear = useCallback(() => setErrors([]), []);
  const capture = useCallback((error: unknown) => setErrors(messagesOf(error, fallback)), [fallback]);
  return { errors, clear, capture };
}
