import { describe, expect, it } from 'vitest';
import { GROUP_NAME_PATTERN, USER_NAME_PATTERN } from '@arca/contracts';
import { nameProblem, nameRules } from './name-rules';

const users = { pattern: USER_NAME_PATTERN, existing: ['ann', 'Bob'], required: 'User name is required' };

describe('name fields of the create forms (spec texts)', () => {
  it("says 'User name is required' for an empty user name", () => {
    expect(nameProblem('  ', users)).toBe('User name is required');
  });

  it("says 'Name cannot contain spaces or special characters' for such a name", () => {
    expect(nameProblem('ann smith', users)).toBe('Name cannot contain spaces or special characters');
    expect(nameProblem('a/b', { pattern: GROUP_NAME_PATTERN, existing: [] })).toBe(
      'Name cannot contain spaces or special characters',
    );
  });

  it("says 'This name already exist' for a name taken in any case", () => {
    expect(nameProblem('bob', users)).toBe('This name already exist');
    expect(nameProblem('carol', users)).toBeUndefined();
  });

  it("says 'This field is mandatory.' for other empty names, and the rules reject with the same texts", async () => {
    expect(nameProblem('', { pattern: GROUP_NAME_PATTERN, existing: [] })).toBe('This field is mandatory.');
    const [, check] = nameRules(users) as [unknown, { validator: (r: unknown, v: unknown) => Promise<void> }];
    await expect(check.validator({}, 'ann')).rejects.toThrow('This name already exist');
    await expect(check.validator({}, 'dave')).resolves.toBeUndefined();
  });
});
