import { describe, expect, it } from 'vitest';
import { ACCESS_MESSAGES, USER_MESSAGES, groupFormSchema, userFormSchema } from '@arca/contracts';
import { nameField, nameProblem } from './name-rules';
import { schemaField } from './schema-rules';

const users = { schema: userFormSchema.shape.name, existing: ['ann', 'Bob'] };

type Checked = { validator: (r: unknown, v: unknown) => Promise<void> };
/** Runs a field's rules as the form does and gives the messages it would show. */
async function messages(field: { rules: unknown[] }, value: unknown): Promise<string[]> {
  const results = await Promise.allSettled(field.rules.map((r) => (r as Checked).validator({}, value)));
  return results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
}

describe('name fields of the create forms check with the API’s own schema', () => {
  it("says 'User name is required' for an empty user name, as the API does", () => {
    expect(nameProblem('  ', users)).toBe('User name is required');
    expect(userFormSchema.shape.name.safeParse('').error?.issues[0]?.message).toBe('User name is required');
  });

  it('gives the API’s format message for a name it would refuse', () => {
    expect(nameProblem('ann smith', users)).toBe(USER_MESSAGES.nameFormat);
    expect(nameProblem('a/b', { schema: groupFormSchema.shape.name, existing: [] })).toBe(
      ACCESS_MESSAGES.groupNameFormat,
    );
  });

  it("says 'This name already exist' for a name taken in any case", () => {
    expect(nameProblem('bob', users)).toBe('This name already exist');
    expect(nameProblem('carol', users)).toBeUndefined();
  });

  it('the field is required and its rules reject with the same texts', async () => {
    const field = nameField(users);
    expect(field.required).toBe(true);
    expect(await messages(field, 'ann')).toEqual(['This name already exist']);
    expect(await messages(field, '')).toEqual(['User name is required']);
    expect(await messages(field, 'dave')).toEqual([]);
  });

  it('an optional field is not marked required and passes empty', async () => {
    const email = schemaField(userFormSchema.shape.email);
    expect(email.required).toBe(false);
    expect(await messages(email, undefined)).toEqual([]);
    expect(await messages(email, 'not-an-address')).toEqual([USER_MESSAGES.invalidEmail]);
  });
});
