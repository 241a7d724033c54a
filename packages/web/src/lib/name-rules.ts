import type { Rule } from 'antd/es/form';
import { ERROR_MESSAGES } from '@arca/contracts';

/** Why a new name is refused, checked in the order a form shows it; undefined when it is fine. */
export function nameProblem(
  value: string,
  {
    pattern,
    existing,
    required = ERROR_MESSAGES.mandatory,
  }: { pattern: RegExp; existing: readonly string[]; required?: string },
): string | undefined {
  const name = value.trim();
  if (!name) return required;
  if (!pattern.test(name)) return ERROR_MESSAGES.nameFormat;
  if (existing.some((e) => e.toLowerCase() === name.toLowerCase())) return ERROR_MESSAGES.nameExists;
  return undefined;
}

/** The same checks as Ant Design form rules, for the name field of a create form. */
export function nameRules(options: { pattern: RegExp; existing: readonly string[]; required?: string }): Rule[] {
  return [
    { required: true, message: options.required ?? ERROR_MESSAGES.mandatory },
    {
      validator: (_rule, value: unknown) => {
        const problem = String(value ?? '').trim() ? nameProblem(String(value), options) : undefined;
        return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
      },
    },
  ];
}
