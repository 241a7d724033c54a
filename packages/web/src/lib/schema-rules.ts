import type { Rule } from 'antd/es/form';
import { ERROR_MESSAGES } from '@arca/contracts';
import type { z } from 'zod';

/** The rule of a field that must be filled in, with the spec's message. */
export const REQUIRED: Rule = { required: true, message: ERROR_MESSAGES.mandatory };
/** The rule of a text field that must hold more than spaces. */
export const REQUIRED_TEXT: Rule = { required: true, whitespace: true, message: ERROR_MESSAGES.mandatory };

/** The first message a schema gives for a value, or undefined when the value passes. */
export function schemaProblem(schema: z.ZodType, value: unknown): string | undefined {
  const checked = schema.safeParse(value ?? '');
  return checked.success ? undefined : (checked.error.issues[0]?.message ?? ERROR_MESSAGES.mandatory);
}

/**
 * A form field checked with the schema the API checks it with: the field refuses what the server
 * would, with the server's message, and is marked required when the schema refuses it empty.
 * Spread it on a `Form.Item`; `more` adds checks the schema cannot make (a name already taken).
 */
export function schemaField(schema: z.ZodType, ...more: Rule[]): { rules: Rule[]; required: boolean } {
  return {
    required: schemaProblem(schema, '') !== undefined,
    rules: [
      {
        validator: (_rule, value: unknown) => {
          const problem = schemaProblem(schema, value);
          return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
        },
      },
      ...more,
    ],
  };
}
