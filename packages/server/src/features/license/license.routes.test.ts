import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LICENSE_MESSAGES } from '@arca/contracts';
import { runCli } from '../../cli.js';
import { ENGINES, XHR, login, messages, startTestApp, type TestApp } from '../../test/harness.js';
import { issuerKeyId, signLicense } from './license-keys.js';

describe.each(ENGINES)('licences on %s', (engine) => {
  let t: TestApp;
  let cookie: string;
  beforeEach(async () => {
    t = await startTestApp(engine);
    cookie = (await login(t.app)).cookie;
  });
  afterEach(async () => {
    await t.close();
  });

  const current = async () => (await t.app.inject({ url: '/ui/api/v1/ui/license', headers: { cookie } })).json();
  const install = (licenseKey: string) =>
    t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/license',
      headers: { ...XHR, cookie },
      payload: { licenseKey },
    });

  it('starts with a non-expiring OSS licence signed by the deployment key', async () => {
    const info = await current();
    expect(info).toMatchObject({ edition: 'OSS', rank: 1, status: 'VALID', expiresAt: null, installedBy: 'system' });
    expect(info.issuer).toBe(t.app.license.ownKey.id);
  });

  it('installs a key issued with this deployment key and shows it everywhere', async () => {
    const key = t.app.license.issue({ edition: 'ENTERPRISE_PLUS', licensee: 'Acme Corp', days: 30 });
    const res = await install(key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      edition: 'ENTERPRISE_PLUS',
      rank: 5,
      licensee: 'Acme Corp',
      installedBy: 'admin',
    });
    const footer = (await t.app.inject({ url: '/ui/api/v1/ui/auth/screen/footer' })).json();
    expect(footer).toMatchObject({ license: 'ENTERPRISE_PLUS', licensedTo: 'Acme Corp' });
    const version = (await t.app.inject({ url: '/artifactory/api/system/version' })).json();
    expect(version.license).toBe('ENTERPRISE_PLUS');
  });

  it('holds one licence per node installed together (the REST call), and a console install replaces them', async () => {
    const basic = { authorization: `Basic ${Buffer.from('admin:Adm1n-test-password').toString('base64')}` };
    const rest = (payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/artifactory/api/system/licenses',
        headers: basic,
        payload: payload as object,
      });
    const key = (licensee: string, edition: 'ENTERPRISE' | 'EDGE' = 'ENTERPRISE') =>
      t.app.license.issue({ edition, licensee, days: 30 });
    const pair = [key('Acme'), key('Acme')];
    const installed = await rest({ licenses: pair.map((licenseKey) => ({ licenseKey })) });
    expect(installed.json()).toMatchObject({ status: 200, count: 2 });
    // the same keys again: nothing more
    expect((await rest(pair.map((licenseKey) => ({ licenseKey })))).json()).toMatchObject({ count: 2 });
    const listed = (await t.app.inject({ url: '/artifactory/api/system/licenses', headers: basic })).json();
    expect(listed.licenses).toHaveLength(2);
    expect(listed.licenses[0]).toMatchObject({ type: 'Enterprise', licensedTo: 'Acme', nodeId: t.app.nodeId });
    expect(listed.licenses[1].nodeId).toBe('');
    expect(listed.arca.nodes).toBe(1);
    expect((await current()).count).toBe(2);

    // keys of two licensees together, or one bad key among good ones: refused, nothing changes
    const mixed = await rest({ licenses: [{ licenseKey: key('Acme') }, { licenseKey: key('Other') }] });
    expect(messages(mixed)).toEqual([LICENSE_MESSAGES.mixed]);
    const bad = await rest({ licenses: [{ licenseKey: key('Acme') }, { licenseKey: 'ARCA-LICENSE-1.x.y' }] });
    expect(bad.statusCode).toBe(400);
    expect((await current()).count).toBe(2);

    // another licensee's key installed on its own takes the place of the pair
    expect((await rest({ licenseKey: key('Beta', 'EDGE') })).statusCode).toBe(200);
    expect(await current()).toMatchObject({ count: 1, edition: 'EDGE', licensee: 'Beta' });
    expect((await install(key('Gamma'))).json()).toMatchObject({ count: 1, licensee: 'Gamma' });
    const single = (await t.app.inject({ url: '/artifactory/api/system/license', headers: basic })).json();
    expect(single).toMatchObject({ type: 'Enterprise', licensedTo: 'Gamma' });
  });

  it('accepts the key inside a .json file text', async () => {
    const key = t.app.license.issue({ edition: 'ENTERPRISE', licensee: 'Json Inc', days: null });
    const res = await install(JSON.stringify({ licenseKey: key }, null, 2));
    expect(res.statusCode).toBe(200);
    expect((await current()).edition).toBe('ENTERPRISE');
  });

  it.each([
    ['malformed text', () => 'not a licence', LICENSE_MESSAGES.malformed],
    ['a broken .json file', () => '{"licenseKey": ', LICENSE_MESSAGES.malformed],
    [
      'a tampered document',
      (k: string) => {
        const [p, doc, sig] = k.split('.');
        const changed = JSON.parse(Buffer.from(doc!, 'base64url').toString());
        changed.edition = 'ENTERPRISE_PLUS';
        return [p, Buffer.from(JSON.stringify(changed)).toString('base64url'), sig].join('.');
      },
      LICENSE_MESSAGES.badSignature,
    ],
  ])('refuses %s and changes nothing', async (_name, make, message) => {
    const good = t.app.license.issue({ edition: 'ENTERPRISE', licensee: 'X', days: 10 });
    const before = await current();
    const res = await install(make(good));
    expect(res.statusCode).toBe(400);
    expect(messages(res)).toEqual([message]);
    expect(await current()).toEqual(before);
  });

  it('refuses a key signed by an untrusted issuer', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const id = issuerKeyId(publicKey);
    const key = signLicense(
      {
        version: 1,
        id: 'foreign',
        edition: 'ENTERPRISE_PLUS',
        licensee: 'Mallory',
        issuedAt: new Date().toISOString(),
        expiresAt: null,
        issuer: id,
      },
      { id, publicKey, privateKey },
    );
    const res = await install(key);
    expect(res.statusCode).toBe(400);
    expect(messages(res)).toEqual([LICENSE_MESSAGES.badSignature]);
    expect((await current()).edition).toBe('OSS');
  });

  it('refuses an expired key and changes nothing', async () => {
    const key = t.app.license.issue({
      edition: 'ENTERPRISE',
      licensee: 'Old',
      days: 1,
      now: Date.now() - 3 * 86_400_000,
    });
    const res = await install(key);
    expect(res.statusCode).toBe(400);
    expect(messages(res)).toEqual([LICENSE_MESSAGES.expired]);
    expect((await current()).edition).toBe('OSS');
  });

  it('reports N/A once the installed licence has expired', async () => {
    await install(t.app.license.issue({ edition: 'TRIAL', licensee: 'Short', days: 1 }));
    await t.app.db
      .updateTable('licenses')
      .set({ expires_at: Date.now() - 1000 })
      .where('active', '=', 1)
      .execute();
    expect(await current()).toMatchObject({ edition: 'NONE', rank: 0, status: 'EXPIRED', licensee: 'Short' });
    const state = (await t.app.inject({ url: '/ui/api/v1/ui/auth/screen/globalState' })).json();
    expect(state).toMatchObject({ licenseEdition: 'NONE', licenseRank: 0 });
  });

  it('refuses an empty key with the mandatory message', async () => {
    const res = await install('   ');
    expect(res.statusCode).toBe(400);
    expect(messages(res).join()).toContain('This field is mandatory.');
  });

  it('lets only admins read or install licences', async () => {
    expect((await t.app.inject({ url: '/ui/api/v1/ui/license' })).statusCode).toBe(401);
  });

  it('issues keys from the command line with the deployment key', async () => {
    const lines: string[] = [];
    const previous = process.env.ARCA_DATA_DIR;
    process.env.ARCA_DATA_DIR = t.dataDir;
    if (t.config.databaseUrl) process.env.ARCA_DATABASE_URL = t.config.databaseUrl;
    try {
      const code = await runCli(
        ['license', 'issue', '--edition', 'ENTERPRISE_PLUS', '--licensee', 'CLI Co', '--days', '7'],
        (l) => lines.push(l),
      );
      expect(code).toBe(0);
    } finally {
      if (previous === undefined) delete process.env.ARCA_DATA_DIR;
      else process.env.ARCA_DATA_DIR = previous;
      delete process.env.ARCA_DATABASE_URL;
    }
    const res = await install(lines[0]!);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ edition: 'ENTERPRISE_PLUS', licensee: 'CLI Co' });
    const bad: string[] = [];
    expect(await runCli(['license', 'issue', '--edition', 'GOLD', '--licensee', 'x'], (l) => bad.push(l))).toBe(2);
    expect(bad[0]).toContain('Usage');
  });

  it('signs with one key on every node, kept sealed in the database', async () => {
    const sealed = await t.app.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'license.issuerKey')
      .executeTakeFirstOrThrow();
    expect(sealed.value).not.toContain('PRIVATE KEY');
    // another node with its own data directory (on PostgreSQL), or another process (on SQLite)
    const second = await startTestApp(engine, {
      ...(t.config.databaseUrl ? { ARCA_DATABASE_URL: t.config.databaseUrl } : { ARCA_DATA_DIR: t.dataDir }),
    });
    try {
      expect(second.app.license.ownKey.id).toBe(t.app.license.ownKey.id);
      const key = second.app.license.issue({ edition: 'ENTERPRISE_PLUS', licensee: 'Node B', days: 30 });
      expect((await install(key)).statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('takes over the key an earlier version kept in the data directory', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-license-'));
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    fs.mkdirSync(path.join(dataDir, 'keys'));
    fs.writeFileSync(
      path.join(dataDir, 'keys', 'license-issuer.key'),
      privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    const upgraded = await startTestApp(engine, { ARCA_DATA_DIR: dataDir });
    try {
      expect(upgraded.app.license.ownKey.id).toBe(issuerKeyId(publicKey));
    } finally {
      await upgraded.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
