import { z } from 'zod';

/** Every error the server answers has this body. */
export const errorBodySchema = z.object({
  errors: z
    .array(
      z.object({
        status: z.number().int(),
        message: z.string(),
        code: z.string().optional(),
        /** The form field the message is about (dotted path), when it is about one. */
        field: z.string().optional(),
      }),
    )
    .min(1),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const ERROR_MESSAGES = {
  default: "Error. Please check the product's logs.",
  noResponse: 'No response received from server',
  notAuthorized: 'You are not authorized to view this page',
  notFound: 'The object you were looking for could not be found.',
  mandatory: 'This field is mandatory.',
  /** Spec part 1 §5 / part 2 §8: the texts of name fields in forms. */
  userNameRequired: 'User name is required',
  nameExists: 'This name already exist',
  nameFormat: 'Name cannot contain spaces or special characters',
  invalidUrl: 'Enter a valid URL.',
  csrf: 'This call needs the X-Requested-With: XMLHttpRequest header.',
  internal: 'An internal error occurred. The details were logged with the request id.',
} as const;

/** A failed call as the console's fetch wrapper sees it. */
export interface FailedCall {
  /** The parsed JSON body, or the body text when it was not JSON; undefined when none was read. */
  body?: unknown;
  /** True when the request never got an answer (network failure, server down). */
  noResponse?: boolean;
  /** The thrown error's own message, if any. */
  message?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

/** A message that holds JSON text is replaced by that JSON's `error` field (spec part 2 §8.1). */
function unwrapJsonMessage(message: string): string {
  const text = message.trim();
  if (!text.startsWith('{')) return message;
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) {
      if (nonEmptyString(parsed.error)) return parsed.error;
      if (isRecord(parsed.error) && nonEmptyString(parsed.error.message)) return parsed.error.message;
    }
  } catch {
    // not JSON after all: keep the text as it is
  }
  return message;
}

/**
 * Every message of a failed call, in the order of spec part 2 §8.1: an errors array (message or
 * detail of each), feedbackMsg.error, error, message, a plain string body; with no response
 * 'No response received from server'; otherwise the error's own message; else the default text.
 */
export function normalizeErrorMessages(call: FailedCall): string[] {
  const { body } = call;
  if (isRecord(body)) {
    if (Array.isArray(body.errors) && body.errors.length > 0) {
      const messages = body.errors
        .map((entry: unknown) => {
          if (nonEmptyString(entry)) return unwrapJsonMessage(entry);
          if (!isRecord(entry)) return undefined;
          const text = nonEmptyString(entry.message)
            ? entry.message
            : nonEmptyString(entry.detail)
              ? entry.detail
              : undefined;
          return text === undefined ? undefined : unwrapJsonMessage(text);
        })
        .filter((m): m is string => m !== undefined);
      if (messages.length > 0) return messages;
    }
    if (isRecord(body.feedbackMsg) && nonEmptyString(body.feedbackMsg.error)) return [body.feedbackMsg.error];
    if (nonEmptyString(body.error)) return [unwrapJsonMessage(body.error)];
    if (isRecord(body.error) && nonEmptyString(body.error.message)) return [body.error.message];
    if (nonEmptyString(body.message)) return [unwrapJsonMessage(body.message)];
  } else if (nonEmptyString(body)) {
    return [unwrapJsonMessage(body)];
  }
  if (call.noResponse) return [ERROR_MESSAGES.noResponse];
  if (nonEmptyString(call.message)) return [call.message];
  return [ERROR_MESSAGES.default];
}

/** The messages of a failed call joined for one notification. */
export function normalizeErrorMessage(call: FailedCall): string {
  return normalizeErrorMessages(call).join('\n');
}

/** The messages of an error body that name a form field, by field (dotted path). */
export function fieldErrorsOf(body: unknown): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  if (!isRecord(body) || !Array.isArray(body.errors)) return fields;
  for (const entry of body.errors as unknown[]) {
    if (!isRecord(entry) || !nonEmptyString(entry.field) || !nonEmptyString(entry.message)) continue;
    (fields[entry.field] ??= []).push(entry.message);
  }
  return fields;
}
