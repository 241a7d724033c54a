import type { Rule } from 'antd/es/form';
import { ERROR_MESSAGES } from '@arca/contracts';
import type { z } from 'zod';
import { schemaField, schemaProblem } from './schema-rules';

interface NameOptions {
  /** The API's schema for the name: its messages are the form's. */
  schema: z.ZodType;
  /** The names already taken (compared without case). */
  existing: readonly string[];
}

/** Why a new name is refused, checked in the order a form shows it; undefined when it is fine. */
export function nameProblem(value: string, { schema, existing }: NameOptions): string | undefined {
  const problem = schemaProblem(schema, value.trim() ? value : '');
  if (problem) return problem;
  const name = value.trim();
  if (existing.some((e) => e.toLowerCase() === name.toLowerCase())) return ERROR_MESSAGES.nameExists;
  return undefined;
}

/** The name field of a create form: the API's checks, then "already taken". */
export function nameField(options: NameOptions): { rules: Rule[]; required: boolean } {
  const taken: Rule = {
    validator: (_rule, value: unknown) => {
      const name = String(value ?? '').trim();
      return options.existing.some((e) => e.toLowerCase() === name.toLowerCase())
        ? Promise.reject(new Error(ERROR_MESSAGES.nameExists))
        : Promise.resolve();
    },
  };
  return schemaField(options.schema, taken);
}
