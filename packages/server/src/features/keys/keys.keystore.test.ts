import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYSTORE_MESSAGES, formatMessage } from '@arca/contracts';
import { ADMIN_BASIC, ENGINES, XHR, messages, startTestApp, type TestApp } from '../../test/harness.js';

const API = '/ui/api/v1/ui/security/keyStore';

/** Key stores made by the JDK's keytool: a JKS with a key entry, a PKCS#12 with a key and a trusted certificate. */
function makeStores(dir: string) {
  const keytool = (...args: string[]) => execFileSync('keytool', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const jks = path.join(dir, 'client.jks');
  const p12 = path.join(dir, 'mixed.p12');
  keytool(
    '-genkeypair',
    '-alias',
    'ci-client',
    '-keyalg',
    'RSA',
    '-keysize',
    '2048',
    '-dname',
    'CN=ci.example.com, O=Acme',
    '-validity',
    '365',
    '-keystore',
    jks,
    '-storetype',
    'JKS',
    '-storepass',
    'changeit',
    '-keypass',
    'changeit',
  );
  keytool(
    '-genkeypair',
    '-alias',
    'edge',
    '-keyalg',
    'EC',
    '-dname',
    'CN=edge.example.com',
    '-validity',
    '365',
    '-keystore',
    p12,
    '-storetype',
    'PKCS12',
    '-storepass',
    's3cret',
  );
  const caPem = path.join(dir, 'ca.pem');
  keytool('-exportcert', '-rfc', '-alias', 'ci-client', '-keystore', jks, '-storepass', 'changeit', '-file', caPem);
  keytool(
    '-importcert',
    '-noprompt',
    '-alias',
    'acme-ca',
    '-file',
    caPem,
    '-keystore',
    p12,
    '-storetype',
    'PKCS12',
    '-storepass',
    's3cret',
  );
  return { jks: fs.readFileSync(jks).toString('base64'), p12: fs.readFileSync(p12).toString('base64') };
}

describe.each(ENGINES)('Java key stores on %s', (engine) => {
  let t: TestApp;
  let dir: string;
  let stores: ReturnType<typeof makeStores>;
  const admin = { ...ADMIN_BASIC, ...XHR };
  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `${API}/${url}`, headers: admin, payload });

  beforeAll(async () => {
    t = await startTestApp(engine);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-keystore-'));
    stores = makeStores(dir);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists what JKS and PKCS#12 stores hold, opened with their password', async () => {
    const jks = await post('entries', { file: stores.jks, password: 'changeit' });
    expect(jks.statusCode).toBe(200);
    expect(jks.json()).toEqual([
      expect.objectContaining({ entry: 'ci-client', kind: 'client', subject: 'O=Acme, CN=ci.example.com', keptAs: '' }),
    ]);
    const p12 = await post('entries', { file: stores.p12, password: 's3cret' });
    expect(p12.json().map((e: { entry: string; kind: string }) => `${e.entry}:${e.kind}`)).toEqual([
      'acme-ca:trusted',
      'edge:client',
    ]);
    const wrong = await post('entries', { file: stores.p12, password: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(messages(wrong)[0]).toBe(KEYSTORE_MESSAGES.wrongPassword);
    expect(messages(await post('entries', { file: stores.jks, password: 'nope' }))[0]).toBe(
      KEYSTORE_MESSAGES.wrongPassword,
    );
    const junk = await post('entries', { file: Buffer.from('not a store').toString('base64'), password: 'x' });
    expect(messages(junk)[0]).toBe(KEYSTORE_MESSAGES.notKeyStore);
  });

  it('imports the chosen entries as certificates, all or none', async () => {
    // one alias taken: nothing of the batch is kept
    await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/security/certificates',
      headers: admin,
      payload: { alias: 'taken', kind: 'trusted', pem: fs.readFileSync(path.join(dir, 'ca.pem'), 'utf8') },
    });
    const refused = await post('import', {
      file: stores.p12,
      password: 's3cret',
      entries: [
        { entry: 'edge', alias: 'edge-client' },
        { entry: 'acme-ca', alias: 'taken' },
      ],
    });
    expect(refused.statusCode).toBe(409);
    expect(messages(refused)[0]).toBe("A certificate named 'taken' exists already.");
    const twice = await post('import', {
      file: stores.p12,
      password: 's3cret',
      entries: [
        { entry: 'edge', alias: 'same' },
        { entry: 'acme-ca', alias: 'same' },
      ],
    });
    expect(messages(twice)[0]).toBe(formatMessage(KEYSTORE_MESSAGES.aliasTwice, { alias: 'same' }));
    const missing = await post('import', {
      file: stores.p12,
      password: 's3cret',
      entries: [{ entry: 'ghost', alias: 'g' }],
    });
    expect(messages(missing)[0]).toBe(formatMessage(KEYSTORE_MESSAGES.noEntry, { entry: 'ghost' }));
    const none = await post('import', { file: stores.p12, password: 's3cret', entries: [] });
    expect(messages(none)[0]).toBe(`entries: ${KEYSTORE_MESSAGES.nothingChosen}`);
    expect((await t.app.db.selectFrom('certificates').select('alias').execute()).map((r) => r.alias)).toEqual([
      'taken',
    ]);

    const imported = await post('import', {
      file: stores.p12,
      password: 's3cret',
      entries: [
        { entry: 'edge', alias: 'edge-client' },
        { entry: 'acme-ca', alias: 'acme-ca' },
      ],
    });
    expect(imported.statusCode).toBe(201);
    expect(imported.json().map((c: { alias: string; kind: string }) => `${c.alias}:${c.kind}`)).toEqual([
      'acme-ca:trusted',
      'edge-client:client',
    ]);
    const jks = await post('import', {
      file: stores.jks,
      password: 'changeit',
      entries: [{ entry: 'ci-client', alias: 'ci' }],
    });
    expect(jks.json()[0]).toMatchObject({ alias: 'ci', kind: 'client', subject: 'O=Acme, CN=ci.example.com' });
    // the private keys are sealed; what the store held is now known as kept
    const stored = await t.app.db.selectFrom('certificates').select(['alias', 'private_key']).execute();
    expect(stored.every((r) => !r.private_key.includes('PRIVATE KEY'))).toBe(true);
    const again = (await post('entries', { file: stores.p12, password: 's3cret' })).json();
    expect(again.map((e: { keptAs: string }) => e.keptAs)).toEqual(['taken', 'edge-client']);
  });
});
