import { describe, expect, it } from 'vitest';
import { rememberPathAfterLogin, takePathAfterLogin } from './post-login-path';

describe('post-login redirect memory', () => {
  it('returns the remembered path once', () => {
    rememberPathAfterLogin('/overview?x=1', 1000);
    expect(takePathAfterLogin(false, 2000)).toBe('/overview?x=1');
    expect(takePathAfterLogin(false, 2000)).toBeUndefined();
  });
  it('forgets it after one hour', () => {
    rememberPathAfterLogin('/overview', 0);
    expect(takePathAfterLogin(true, 60 * 60 * 1000)).toBeUndefined();
    rememberPathAfterLogin('/overview', 0);
    expect(takePathAfterLogin(true, 60 * 60 * 1000 - 1)).toBe('/overview');
  });
  it('ignores /admin/ targets for non-admins only', () => {
    rememberPathAfterLogin('/admin/management/users', 0);
    expect(takePathAfterLogin(false, 1)).toBeUndefined();
    rememberPathAfterLogin('/admin/management/users', 0);
    expect(takePathAfterLogin(true, 1)).toBe('/admin/management/users');
  });
  it('never redirects off the site', () => {
    rememberPathAfterLogin('//evil.example.com/x', 0);
    expect(takePathAfterLogin(true, 1)).toBeUndefined();
  });
});
