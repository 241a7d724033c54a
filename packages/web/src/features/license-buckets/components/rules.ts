import type { FormRule as Rule } from 'antd';
import { LICENSE_BUCKET_MESSAGES } from '@arca/contracts';
import { REQUIRED, REQUIRED_TEXT } from '../../../lib/schema-rules';

/** Bucket names (spec part 1 §5): letters, digits, dashes, underscores and periods. */
export const bucketNameRules: Rule[] = [
  REQUIRED_TEXT,
  { pattern: /^[A-Za-z0-9._-]+$/, message: LICENSE_BUCKET_MESSAGES.nameRule },
  { max: 64 },
];

/** A number of licenses: a whole number from 1 to `max` ('Decimal not allowed', 'Value too high'). */
export const countRules = (max: number): Rule[] => [
  REQUIRED,
  {
    validator: (_, value: number | null | undefined) => {
      if (value === null || value === undefined) return Promise.resolve();
      if (!Number.isInteger(value)) return Promise.reject(new Error(LICENSE_BUCKET_MESSAGES.decimal));
      if (value > max) return Promise.reject(new Error(LICENSE_BUCKET_MESSAGES.valueTooHigh));
      if (value < 1) return Promise.reject(new Error(LICENSE_BUCKET_MESSAGES.mandatory));
      return Promise.resolve();
    },
  },
];

/** The same checks for a count outside a form (the attach table's cells); undefined when it is fine. */
export function countError(value: number | null | undefined, max: number): string | undefined {
  if (value === null || value === undefined || value < 1) return LICENSE_BUCKET_MESSAGES.mandatory;
  if (!Number.isInteger(value)) return LICENSE_BUCKET_MESSAGES.decimal;
  if (value > max) return LICENSE_BUCKET_MESSAGES.valueTooHigh;
  return undefined;
}
