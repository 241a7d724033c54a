import type { FormInstance } from 'antd';
import { useCallback, useState } from 'react';
import { ERROR_MESSAGES, fieldErrorsOf } from '@arca/contracts';

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
  const capture = useCallback(
    (error: unknown, form?: FormInstance) => {
      const messages = messagesOf(error, fallback);
      const attached = form ? attachFieldErrors(form, error) : new Set<string>();
      setErrors(messages.filter((m) => !attached.has(m)));
    },
    [fallback],
  );
  return { errors, clear, capture };
}

/**
 * Shows the server's messages about fields of `form` under those fields; answers the messages
 * it placed (the rest are shown above the form).
 */
export function attachFieldErrors(form: FormInstance, error: unknown): Set<string> {
  const placed = new Set<string>();
  const body = (error as { body?: unknown } | undefined)?.body;
  const present = form.getFieldsValue(true) as Record<string, unknown>;
  const fields = Object.entries(fieldErrorsOf(body))
    .map(([field, messages]) => ({ name: field.split('.'), messages }))
    .filter(({ name }) => name[0]! in present);
  for (const { messages } of fields) messages.forEach((m) => placed.add(m));
  form.setFields(fields.map(({ name, messages }) => ({ name, errors: messages })));
  return placed;
}
