import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRUSTED_KEY_MESSAGES, formatMessage } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  createRepo,
  messages,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

const API = '/ui/api/v1/ui/security/trustedKeys';
const REST = '/artifactory/api/security/keys/trusted';

/** A GnuPG home with one key, made by gpg itself: its armored public key and its fingerprint. */
function gpgKey(home: string, name: string) {
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  const gpg = (...args: string[]) =>
    execFileSync('gpg', ['--homedir', home, '--batch', '--pinentry-mode', 'loopback', '--passphrase', '', ...args]);
  gpg('--quick-generate-key', `${name} <${name.toLowerCase()}@example.com>`, 'ed25519', 'sign', '2y');
  const publicKey = gpg('--armor', '--export').toString();
  const fingerprint = /fpr:{9}([0-9A-F]{40})/.exec(gpg('--with-colons', '--fingerprint').toString())![1]!;
  const sign = (file: string) => {
    gpg('--yes', '--armor', '--detach-sign', '--output', `${file}.asc`, file);
    return fs.readFileSync(`${file}.asc`);
  };
  return { publicKey, fingerprint, sign, secret: gpg('--armor', '--export-secret-keys').toString() };
}

describe.each(ENGINES)('trusted keys on %s', (engine) => {
  let t: TestApp;
  let dir: string;
  let release: ReturnType<typeof gpgKey>;
  let stranger: ReturnType<typeof gpgKey>;
  const admin = { ...ADMIN_BASIC, ...XHR };

  beforeAll(async () => {
    t = await startTestApp(engine);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-gpg-'));
    release = gpgKey(path.join(dir, 'release'), 'Release');
    stranger = gpgKey(path.join(dir, 'stranger'), 'Stranger');
    await createRepo(t.app, 'libs', { rclass: 'local', packageType: 'generic' });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('trusts public keys under an alias, refuses what is none and keeps nothing then', async () => {
    const added = await t.app.inject({
      method: 'POST',
      url: API,
      headers: admin,
      payload: { alias: 'release', publicKey: release.publicKey },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      alias: 'release',
      kid: release.fingerprint.slice(-16).toLowerCase(),
      fingerprint: release.fingerprint,
      userIds: ['Release <release@example.com>'],
    });
    expect(added.json().validUntil).not.toBeNull();

    const refused = async (payload: object, status = 400) => {
      const res = await t.app.inject({ method: 'POST', url: API, headers: admin, payload });
      expect(res.statusCode).toBe(status);
      return messages(res)[0];
    };
    expect(await refused({ alias: 'again', publicKey: release.publicKey }, 409)).toBe(
      formatMessage(TRUSTED_KEY_MESSAGES.keyTaken, { alias: 'release' }),
    );
    expect(await refused({ alias: 'release', publicKey: stranger.publicKey }, 409)).toBe(
      formatMessage(TRUSTED_KEY_MESSAGES.aliasTaken, { alias: 'release' }),
    );
    expect(await refused({ alias: 'secret', publicKey: stranger.secret })).toBe(TRUSTED_KEY_MESSAGES.privateGiven);
    expect(await refused({ alias: 'junk', publicKey: 'not a key' })).toBe(TRUSTED_KEY_MESSAGES.notPublicKey);
    expect(await refused({ alias: '9lives', publicKey: stranger.publicKey })).toBe(
      `alias: ${TRUSTED_KEY_MESSAGES.aliasInvalid}`,
    );
    expect((await t.app.inject({ method: 'GET', url: API, headers: ADMIN_BASIC })).json()).toHaveLength(1);
  });

  it("tells whether a file's detached signature is verified by a trusted key, untrusted or broken", async () => {
    const file = path.join(dir, 'tool-1.0.tar.gz');
    fs.writeFileSync(file, Buffer.alloc(3 * 1024 * 1024, 7));
    const check = async (name: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/ui/api/v1/ui/artifactsignature?repoKey=libs&path=${name}`,
          headers: ADMIN_BASIC,
        })
      ).json();

    await put(t.app, '/artifactory/libs/tool-1.0.tar.gz', fs.readFileSync(file), ADMIN_BASIC);
    expect(await check('tool-1.0.tar.gz')).toMatchObject({ signaturePath: null, state: null });

    await put(t.app, '/artifactory/libs/tool-1.0.tar.gz.asc', release.sign(file), ADMIN_BASIC);
    const verified = await check('tool-1.0.tar.gz');
    expect(verified).toMatchObject({
      signaturePath: 'tool-1.0.tar.gz.asc',
      state: 'verified',
      alias: 'release',
      keyId: release.fingerprint.slice(-16),
      userIds: ['Release <release@example.com>'],
    });
    expect(verified.message).toBe('Verified: signed by release (Release <release@example.com>).');

    // a signature over other bytes
    fs.writeFileSync(`${file}.other`, 'other bytes');
    await put(t.app, '/artifactory/libs/tool-1.0.tar.gz.asc', release.sign(`${file}.other`), ADMIN_BASIC);
    expect((await check('tool-1.0.tar.gz')).state).toBe('invalid');

    await put(t.app, '/artifactory/libs/tool-1.0.tar.gz.asc', stranger.sign(file), ADMIN_BASIC);
    expect(await check('tool-1.0.tar.gz')).toMatchObject({
      state: 'untrusted',
      keyId: stranger.fingerprint.slice(-16),
      message: `Signed by the key ${stranger.fingerprint.slice(-16)}, which is not among the trusted keys.`,
    });

    await put(t.app, '/artifactory/libs/tool-1.0.tar.gz.asc', Buffer.from('garbage'), ADMIN_BASIC);
    expect((await check('tool-1.0.tar.gz')).state).toBe('unreadable');
  });

  it("speaks Artifactory's trusted-key calls", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: REST,
      headers: ADMIN_BASIC,
      payload: { alias: 'stranger', public_key: stranger.publicKey },
    });
    expect(created.statusCode).toBe(201);
    const kid = stranger.fingerprint.slice(-16).toLowerCase();
    expect(created.json()).toMatchObject({
      kid,
      alias: 'stranger',
      fingerprint: stranger.fingerprint,
      issued_by: 'Stranger <stranger@example.com>',
    });
    const list = (await t.app.inject({ method: 'GET', url: REST, headers: ADMIN_BASIC })).json();
    expect(list.keys.map((k: { alias: string }) => k.alias)).toEqual(['release', 'stranger']);
    expect((await t.app.inject({ method: 'GET', url: `${REST}/${kid}`, headers: ADMIN_BASIC })).json().key).toContain(
      'BEGIN PGP PUBLIC KEY BLOCK',
    );
    expect((await t.app.inject({ method: 'DELETE', url: `${REST}/${kid}`, headers: ADMIN_BASIC })).statusCode).toBe(
      204,
    );
    const gone = await t.app.inject({ method: 'GET', url: `${REST}/${kid}`, headers: ADMIN_BASIC });
    expect(gone.statusCode).toBe(404);
    expect(messages(gone)[0]).toBe(formatMessage(TRUSTED_KEY_MESSAGES.notFound, { kid }));
    const anonymous = await t.app.inject({ method: 'GET', url: REST });
    expect(anonymous.statusCode).toBe(401);
  });
});
