import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import * as openpgp from 'openpgp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_MESSAGES } from '@arca/contracts';
import { ENGINES, XHR, createRepo, login, messages, startTestApp, type TestApp } from '../../test/harness.js';

const API = '/ui/api/v1/ui/security/keyPairs';

describe.each(ENGINES)('key pairs on %s', (engine) => {
  let t: TestApp;
  let admin: Record<string, string>;
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `${API}${url}`, headers: admin, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await startTestApp(engine);
    admin = { ...XHR, cookie: (await login(t.app)).cookie };
    await createRepo(t.app, 'deb-local', { rclass: 'local', packageType: 'debian' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('generates GPG and RSA pairs, verifies them and hands out only their public halves', async () => {
    const gpg = await call('POST', '', { pairName: 'release', pairType: 'GPG', alias: 'Acme Release' });
    expect(gpg.statusCode).toBe(201);
    expect(gpg.json()).toMatchObject({ pairName: 'release', pairType: 'GPG', source: 'generated' });
    const publicKey = await openpgp.readKey({ armoredKey: gpg.json().publicKey });
    expect(publicKey.isPrivate()).toBe(false);
    expect(publicKey.getUserIDs()).toEqual(['Acme Release']);
    const rsa = await call('POST', '', { pairName: 'jwt', pairType: 'RSA' });
    expect(rsa.json()).toMatchObject({ pairType: 'RSA', algorithm: 'RSA 3072' });
    expect(rsa.json().publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);

    for (const name of ['release', 'jwt']) {
      expect((await call('POST', `/${name}/verify`)).json()).toEqual({ valid: true, message: KEY_MESSAGES.verified });
    }
    const download = await call('GET', '/jwt/public');
    expect(download.headers['content-disposition']).toBe('attachment; filename="jwt.pem"');
    expect(download.body).toBe(rsa.json().publicKey);
    const stored = await t.app.db.selectFrom('key_pairs').select('private_key').execute();
    expect(stored.every((r) => !r.private_key.includes('PRIVATE KEY'))).toBe(true);
    expect((await call('GET', '')).json().map((p: { pairName: string }) => p.pairName)).toEqual(['jwt', 'release']);
    expect((await call('POST', '', { pairName: 'jwt', pairType: 'RSA' })).statusCode).toBe(409);
  });

  it('imports pairs opened with their passphrase, refuses what does not fit and stores nothing then', async () => {
    const { privateKey, publicKey } = await openpgp.generateKey({
      type: 'ecc',
      curve: 'curve25519Legacy',
      userIDs: [{ name: 'Team' }],
      passphrase: 'open sesame',
    });
    const other = await openpgp.generateKey({ type: 'ecc', curve: 'curve25519Legacy', userIDs: [{ name: 'Other' }] });
    const refused = async (body: object) => {
      const res = await call('POST', '', body);
      expect(res.statusCode).toBe(400);
      return messages(res)[0];
    };
    expect(await refused({ pairName: 'team', pairType: 'GPG', privateKey, passphrase: 'nope' })).toBe(
      KEY_MESSAGES.wrongPassphrase,
    );
    expect(
      await refused({
        pairName: 'team',
        pairType: 'GPG',
        privateKey,
        passphrase: 'open sesame',
        publicKey: other.publicKey,
      }),
    ).toBe(KEY_MESSAGES.publicMismatch);
    expect(await refused({ pairName: 'team', pairType: 'GPG', privateKey: 'garbage' })).toBe(
      KEY_MESSAGES.notPrivateKey,
    );
    expect(await refused({ pairName: 'team', pairType: 'GPG', publicKey })).toBe(KEY_MESSAGES.publicWithoutPrivate);
    const rsa = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'rsa pass' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    expect(await refused({ pairName: 'svc', pairType: 'RSA', privateKey: rsa.privateKey, passphrase: 'wrong' })).toBe(
      KEY_MESSAGES.wrongPassphrase,
    );
    // about one wrong passphrase in 300 decrypts to valid padding and fails as an unreadable key
    // instead: OpenSSL then says nothing of a passphrase, and the answer must still be about it
    const unlucky = Array.from({ length: 10_000 }, (_, i) => `wrong ${i}`).find((candidate) => {
      try {
        createPrivateKey({ key: rsa.privateKey, format: 'pem', passphrase: candidate });
        return false;
      } catch (error) {
        return (error as { code?: string }).code !== 'ERR_OSSL_BAD_DECRYPT';
      }
    });
    expect(unlucky).toBeDefined();
    expect(await refused({ pairName: 'svc', pairType: 'RSA', privateKey: rsa.privateKey, passphrase: unlucky })).toBe(
      KEY_MESSAGES.wrongPassphrase,
    );
    const ec = generateKeyPairSync('ec', {
      namedCurve: 'P-256',
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    expect(await refused({ pairName: 'svc', pairType: 'RSA', privateKey: ec.privateKey })).toBe(KEY_MESSAGES.notRsaKey);
    expect(await refused({ pairName: '9bad', pairType: 'RSA' })).toContain(KEY_MESSAGES.nameInvalid);
    expect(
      await t.app.db.selectFrom('key_pairs').select('name').where('name', 'in', ['team', 'svc']).execute(),
    ).toEqual([]);

    const team = await call('POST', '', {
      pairName: 'team',
      pairType: 'GPG',
      privateKey,
      publicKey,
      passphrase: 'open sesame',
    });
    expect(team.json()).toMatchObject({ source: 'imported' });
    const svc = await call('POST', '', {
      pairName: 'svc',
      pairType: 'RSA',
      privateKey: rsa.privateKey,
      publicKey: rsa.publicKey,
      passphrase: 'rsa pass',
    });
    expect(svc.json()).toMatchObject({ source: 'imported', algorithm: 'RSA 2048' });
    expect((await call('POST', '/svc/verify')).json().valid).toBe(true);
  });

  it('puts a GPG pair to sign a repository, and deletes pairs', async () => {
    const made = (await call('POST', '', { pairName: 'deb-signing', pairType: 'GPG' })).json();
    const used = await call('POST', '/deb-signing/use', { repoKey: 'deb-local' });
    expect(used.statusCode).toBe(200);
    const served = await t.app.inject({ url: '/artifactory/api/gpg/key/public/deb-local' });
    expect(served.headers['x-gpg-key-fingerprint']).toBe(made.fingerprint);
    const rsa = await call('POST', '', { pairName: 'not-for-apt', pairType: 'RSA' });
    expect(rsa.statusCode).toBe(201);
    expect(messages(await call('POST', '/not-for-apt/use', { repoKey: 'deb-local' }))[0]).toBe(KEY_MESSAGES.notGpg);
    expect((await call('POST', '/deb-signing/use', { repoKey: 'nope' })).statusCode).toBe(404);
    const signing = await t.app.inject({ url: '/ui/api/v1/ui/security/signingKeys', headers: admin });
    expect(signing.json().repositories).toEqual([
      expect.objectContaining({ scope: 'deb-local', fingerprint: made.fingerprint }),
    ]);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/ui/api/v1/ui/security/signingKeys/deb-local', headers: admin }))
        .statusCode,
    ).toBe(204);
    const fallback = await t.app.inject({ url: '/artifactory/api/gpg/key/public/deb-local' });
    expect(fallback.headers['x-gpg-key-fingerprint']).toBe(signing.json().deployment.fingerprint);
    expect((await call('DELETE', '/not-for-apt')).statusCode).toBe(204);
    expect(messages(await call('DELETE', '/not-for-apt'))[0]).toBe("There is no key pair 'not-for-apt'.");
  });
});
