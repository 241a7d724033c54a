import { describe, expect, it } from 'vitest';
import { adoptionMetricBodySchema } from './system.js';
import { loginBodySchema } from './auth.js';
import { isAnonymousName } from './ui.js';

describe('login contract', () => {
  it('defaults the type to login and trims the user', () => {
    expect(loginBodySchema.parse({ user: ' admin ', password: 'p' })).toEqual({
      user: 'admin',
      password: 'p',
      type: 'login',
    });
  });
  it.each([
    [{ password: 'p' }, 'user'],
    [{ user: '', password: 'p' }, 'user'],
    [{ user: 'admin', password: '' }, 'password'],
  ])('refuses %j naming the missing field', (body, field) => {
    const result = loginBodySchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([field]);
  });
  it('refuses a type other than login', () => {
    expect(loginBodySchema.safeParse({ user: 'a', password: 'b', type: 'sso' }).success).toBe(false);
  });
  it('treats an empty name and anonymous as anonymous', () => {
    expect(isAnonymousName('')).toBe(true);
    expect(isAnonymousName('anonymous')).toBe(true);
    expect(isAnonymousName('admin')).toBe(false);
  });
});

describe('adoption metric contract', () => {
  it('defaults type Increase and value 1', () => {
    expect(adoptionMetricBodySchema.parse({ featureName: 'f', action: 'a' })).toEqual({
      featureName: 'f',
      action: 'a',
      type: 'Increase',
      value: 1,
    });
  });
  it('refuses a non-positive or fractional value', () => {
    expect(adoptionMetricBodySchema.safeParse({ featureName: 'f', action: 'a', value: 0 }).success).toBe(false);
    expect(adoptionMetricBodySchema.safeParse({ featureName: 'f', action: 'a', value: 1.5 }).success).toBe(false);
  });
});
