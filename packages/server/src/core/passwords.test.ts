import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { startTestApp } from '../test/harness.js';
import { DEFAULT_PASSWORD_HASH_COST, hashPassword, setPasswordHashCost, verifyPassword } from './passwords.js';

describe('password hashes', () => {
  // the cost is the process's: an app started earlier in this process set its own
  beforeEach(() => setPasswordHashCost(DEFAULT_PASSWORD_HASH_COST));
  afterEach(() => setPasswordHashCost(DEFAULT_PASSWORD_HASH_COST));

  it('are made with scrypt at the cost set, and verified at the cost each was made with', async () => {
    const strong = await hashPassword('Secret-1');
    expect(strong).toMatch(/^scrypt\$16384\$8\$1\$/);
    setPasswordHashCost(1024);
    const light = await hashPassword('Secret-1');
    expect(light).toMatch(/^scrypt\$1024\$8\$1\$/);
    setPasswordHashCost(DEFAULT_PASSWORD_HASH_COST);
    for (const stored of [strong, light]) {
      expect(await verifyPassword('Secret-1', stored)).toBe(true);
      expect(await verifyPassword('secret-1', stored)).toBe(false);
    }
    expect(() => setPasswordHashCost(3000)).toThrow('power of two');
    expect(() => loadConfig({ ARCA_PASSWORD_HASH_COST: '1000' })).toThrow('ARCA_PASSWORD_HASH_COST');
    expect(() => loadConfig({ ARCA_PASSWORD_HASH_COST: '512' })).toThrow('ARCA_PASSWORD_HASH_COST');
  });

  it('of a server left at its defaults cost 16384 (the tests set the lowest)', async () => {
    const t = await startTestApp('sqlite', { ARCA_PASSWORD_HASH_COST: '' });
    try {
      const admin = await t.app.db
        .selectFrom('users')
        .select('password_hash')
        .where('name', '=', 'admin')
        .executeTakeFirstOrThrow();
      expect(admin.password_hash).toMatch(/^scrypt\$16384\$/);
    } finally {
      await t.close();
    }
  });
});
