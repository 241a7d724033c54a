import * as openpgp from 'openpgp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, ENGINES, createRepo, createUser, startTestApp, type TestApp } from '../../test/harness.js';

const BASE = '/artifactory/api/gpg/key';

describe.each(ENGINES)('signing keys on %s', (engine) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'deb-local', { rclass: 'local', packageType: 'debian' });
  });
  afterEach(async () => {
    await t.close();
  });

  it('makes the deployment key once and answers its public part to anyone, never the private one at rest', async () => {
    const first = await t.app.inject({ method: 'GET', url: `${BASE}/public` });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toContain('application/pgp-keys');
    const key = await openpgp.readKey({ armoredKey: first.body });
    expect(key.isPrivate()).toBe(false);
    expect(key.getAlgorithmInfo()).toMatchObject({ algorithm: 'eddsaLegacy', curve: 'ed25519Legacy' });
    const again = await t.app.inject({ method: 'GET', url: `${BASE}/public/deb-local` });
    expect(again.body).toBe(first.body);
    const row = await t.app.db.selectFrom('signing_keys').selectAll().executeTakeFirstOrThrow();
    expect(row.private_key).not.toContain('PGP PRIVATE KEY');
    expect(row.fingerprint).toBe(key.getFingerprint().toUpperCase());
  });

  it('imports a passphrase-protected key for a repository, refuses a wrong passphrase, and falls back when it is removed', async () => {
    const { privateKey, publicKey } = await openpgp.generateKey({
      type: 'ecc',
      curve: 'curve25519Legacy',
      userIDs: [{ name: 'Team key' }],
      passphrase: 'open sesame',
    });
    const wrong = await t.app.inject({
      method: 'PUT',
      url: `${BASE}/private/deb-local`,
      headers: { ...ADMIN_BASIC, 'content-type': 'text/plain', 'x-gpg-passphrase': 'nope' },
      payload: privateKey,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0].message).toBe('The passphrase does not open the private key.');
    const garbage = await t.app.inject({
      method: 'PUT',
      url: `${BASE}/private/deb-local`,
      headers: { ...ADMIN_BASIC, 'content-type': 'text/plain' },
      payload: 'not a key',
    });
    expect(garbage.json().errors[0].message).toBe('The key is not an armored OpenPGP private key.');
    expect(await t.app.db.selectFrom('signing_keys').selectAll().execute()).toEqual([]);

    const imported = await t.app.inject({
      method: 'PUT',
      url: `${BASE}/private/deb-local`,
      headers: { ...ADMIN_BASIC, 'content-type': 'text/plain', 'x-gpg-passphrase': 'open sesame' },
      payload: privateKey,
    });
    expect(imported.statusCode).toBe(200);
    expect(imported.json()).toMatchObject({ scope: 'deb-local', source: 'imported', userId: 'Team key' });
    expect(imported.json()).not.toHaveProperty('privateKey');
    const served = await openpgp.readKey({
      armoredKey: (await t.app.inject({ url: `${BASE}/public/deb-local` })).body,
    });
    expect(served.getFingerprint()).toBe((await openpgp.readKey({ armoredKey: publicKey })).getFingerprint());

    // a signature made with it verifies against the published key
    const signer = await t.services.signing.signerFor('deb-local');
    const signature = await signer.detached(Buffer.from('Release'));
    const verified = await openpgp.verify({
      message: await openpgp.createMessage({ binary: new Uint8Array(Buffer.from('Release')) }),
      signature: await openpgp.readSignature({ armoredSignature: signature }),
      verificationKeys: served,
    });
    await expect(verified.signatures[0]!.verified).resolves.toBe(true);

    expect((await t.app.inject({ method: 'DELETE', url: `${BASE}/deb-local`, headers: ADMIN_BASIC })).statusCode).toBe(
      204,
    );
    const fallback = await t.app.inject({ url: `${BASE}/public/deb-local` });
    expect(fallback.body).toBe((await t.app.inject({ url: `${BASE}/public` })).body);
    expect((await t.app.inject({ method: 'DELETE', url: `${BASE}/deb-local`, headers: ADMIN_BASIC })).statusCode).toBe(
      404,
    );
  });

  it('lets only administrators change keys, and audits each change', async () => {
    const ann = await createUser(t.app, 'ann');
    const refused = await t.app.inject({ method: 'POST', url: `${BASE}/generate/deb-local`, headers: ann });
    expect(refused.statusCode).toBe(403);
    const made = await t.app.inject({ method: 'POST', url: `${BASE}/generate/deb-local`, headers: ADMIN_BASIC });
    expect(made.json()).toMatchObject({ scope: 'deb-local', source: 'generated' });
    const audit = await t.app.db
      .selectFrom('audit_events')
      .selectAll()
      .where('target', '=', 'signing key of deb-local')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['generate']);
    expect(JSON.stringify(audit)).not.toContain('PRIVATE');
  });
});
