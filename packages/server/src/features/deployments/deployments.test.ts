import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPLOYMENT_MESSAGES } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ADMIN_PASSWORD,
  ENGINES,
  XHR,
  messages,
  startListeningApp as listening,
  type TestApp,
} from '../../test/harness.js';
import { deploymentToken } from './deployments.service.js';

const API = '/ui/api/v1/mc/api/v1/deployments';
const admin = { ...ADMIN_BASIC, ...XHR };

describe.each(ENGINES)('platform deployments on %s', (engine) => {
  let management: Awaited<ReturnType<typeof listening>>;
  let member: Awaited<ReturnType<typeof listening>>;
  let other: Awaited<ReturnType<typeof listening>>;

  beforeAll(async () => {
    [management, member, other] = await Promise.all([listening(engine), listening(engine), listening(engine)]);
  });
  afterAll(async () => {
    await Promise.all([management?.close(), member?.close(), other?.close()]);
  });

  /** A pairing token made by the member's administrator. */
  const pairingToken = async (target: TestApp) => {
    const res = await target.app.inject({ method: 'POST', url: '/access/api/v1/pairing/token', headers: ADMIN_BASIC });
    return res.json().token as string;
  };
  const register = (payload: object) => management.app.inject({ method: 'POST', url: API, headers: admin, payload });

  it('pairs with a single-use token, and keeps nothing when the token or the form is wrong', async () => {
    const refused = async (payload: object) => {
      const res = await register(payload);
      expect(res.statusCode).toBe(400);
      return messages(res)[0];
    };
    expect(await refused({ name: 'bad name!', url: member.url, pairing_token: 'x' })).toBe(
      `name: ${DEPLOYMENT_MESSAGES.nameInvalid}`,
    );
    expect(await refused({ name: 'member', url: 'not a url', pairing_token: 'x' })).toBe(
      `url: ${DEPLOYMENT_MESSAGES.urlInvalid}`,
    );
    expect(await refused({ name: 'member', url: member.url })).toBe(
      `pairing_token: ${DEPLOYMENT_MESSAGES.tokenRequired}`,
    );
    expect(await refused({ name: 'member', url: member.url, tags: ['X'], pairing_token: 'x' })).toBe(
      `tags.0: ${DEPLOYMENT_MESSAGES.tagInvalid}`,
    );
    expect(await refused({ name: 'member', url: member.url, pairing_token: 'arcapair_forged' })).toBe(
      DEPLOYMENT_MESSAGES.pairingRefused,
    );

    const token = await pairingToken(member);
    const paired = await register({
      name: 'member',
      url: member.url,
      tags: ['eu_west', 'prod'],
      location: { city: 'Amsterdam', latitude: 52.37, longitude: 4.9 },
      pairing_token: token,
    });
    expect(paired.statusCode).toBe(201);
    expect(paired.json()).toMatchObject({
      name: 'member',
      status: 'ONLINE',
      service_type: 'PLATFORM',
      tags: ['eu_west', 'prod'],
      location: { city: 'Amsterdam' },
    });
    expect(paired.json().services.length).toBeGreaterThan(0);
    // the token is spent: a second use is refused and registers nothing
    expect(await refused({ name: 'again', url: member.url, pairing_token: token })).toBe(
      DEPLOYMENT_MESSAGES.pairingRefused,
    );
    expect((await management.app.inject({ method: 'GET', url: API, headers: admin })).json()).toHaveLength(1);
    // the member issued a service token of its own; the management deployment keeps it sealed
    const tokens = (
      await member.app.inject({ method: 'GET', url: '/access/api/v1/tokens', headers: ADMIN_BASIC })
    ).json();
    expect(tokens.tokens.some((t: { description: string }) => t.description.startsWith('Management deployment'))).toBe(
      true,
    );
    const stored = await management.app.db.selectFrom('deployments').select('token').executeTakeFirst();
    expect(stored!.token).not.toMatch(/^ey/);
  });

  it('registers with a user name and password used once, and follows a deployment going down and up', async () => {
    const wrong = await register({ name: 'other', url: other.url, username: 'admin', password: 'nope' });
    expect(messages(wrong)[0]).toBe(DEPLOYMENT_MESSAGES.credentialsRefused);
    const added = await register({ name: 'other', url: other.url, username: 'admin', password: ADMIN_PASSWORD });
    expect(added.statusCode).toBe(201);
    const id = added.json().id as string;
    const test = async () =>
      (await management.app.inject({ method: 'POST', url: `${API}/${id}/test`, headers: admin })).json();
    expect(await test()).toMatchObject({ ok: true, message: DEPLOYMENT_MESSAGES.testOk });

    // the member stops listening: OFFLINE; it listens again on its port: ONLINE
    await new Promise((resolve) => other.app.server.close(resolve));
    // the polling job sees it first
    const statusOf = async () =>
      (
        (await management.app.inject({ method: 'GET', url: `${API}/${id}`, headers: admin })).json() as {
          status: string;
        }
      ).status;
    expect(await management.app.jobs.runNow('deployment-status')).toBe(true);
    expect(await statusOf()).toBe('OFFLINE');
    const down = await test();
    expect(down).toMatchObject({ ok: false, deployment: { status: 'OFFLINE' } });
    expect(down.message).toBe(`${DEPLOYMENT_MESSAGES.testFailed}: ${DEPLOYMENT_MESSAGES.unresolved}`);
    await new Promise<void>((resolve) => other.app.server.listen(other.port, '127.0.0.1', resolve));
    expect(await management.app.jobs.runNow('deployment-status')).toBe(true);
    expect(await statusOf()).toBe('ONLINE');
    expect((await test()).deployment.status).toBe('ONLINE');

    // its administrator revokes the service token: UNAUTHORIZED until re-authenticated
    const tokens = (
      await other.app.inject({ method: 'GET', url: '/access/api/v1/tokens', headers: ADMIN_BASIC })
    ).json();
    const service = tokens.tokens.find((t: { description: string }) =>
      t.description.startsWith('Management deployment'),
    );
    await other.app.inject({
      method: 'DELETE',
      url: `/access/api/v1/tokens/${service.token_id}`,
      headers: ADMIN_BASIC,
    });
    expect((await test()).deployment.status).toBe('UNAUTHORIZED');
    const reauth = await management.app.inject({
      method: 'POST',
      url: `${API}/${id}/reauth`,
      headers: admin,
      payload: { pairing_token: await pairingToken(other) },
    });
    expect(reauth.json().status).toBe('ONLINE');
  });

  it('updates and deletes registrations, and refuses a name taken or a server that is no Arca', async () => {
    const list = (await management.app.inject({ method: 'GET', url: API, headers: admin })).json();
    const member = list.find((d: { name: string }) => d.name === 'member');
    const taken = await management.app.inject({
      method: 'PUT',
      url: `${API}/${member.id}`,
      headers: admin,
      payload: { name: 'other', url: member.url },
    });
    expect(taken.statusCode).toBe(409);
    const renamed = await management.app.inject({
      method: 'PUT',
      url: `${API}/${member.id}`,
      headers: admin,
      payload: { name: 'member-eu', url: member.url, tags: ['prod'] },
    });
    expect(renamed.json()).toMatchObject({ name: 'member-eu', tags: ['prod'], status: 'ONLINE' });
    const gone = await management.app.inject({ method: 'DELETE', url: `${API}/${member.id}`, headers: admin });
    expect(gone.json()).toEqual({ message: DEPLOYMENT_MESSAGES.deleted });
    const missing = await management.app.inject({ method: 'GET', url: `${API}/${member.id}`, headers: admin });
    expect(missing.statusCode).toBe(404);
    expect(messages(missing)[0]).toBe(DEPLOYMENT_MESSAGES.notFound);
    // nothing listens there at all
    const nowhere = await register({ name: 'nowhere', url: 'http://127.0.0.1:1', pairing_token: 'arcapair_x' });
    expect(messages(nowhere)[0]).toBe(DEPLOYMENT_MESSAGES.unresolved);
  });

  it('pairs a new URL again before anything is sent there, and never sends it the old service token', async () => {
    const created = await register({ name: 'moving', url: other.url, pairing_token: await pairingToken(other) });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    const serviceToken = await deploymentToken(management.app, id);
    expect(serviceToken).not.toBe('');
    // a host an administrator (or whoever took over the session) points the registration at
    const seen: { url: string; authorization: string; body: string }[] = [];
    const elsewhere = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', authorization: req.headers.authorization ?? '', body });
        res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    const move = (payload: object) =>
      management.app.inject({
        method: 'PUT',
        url: `${API}/${id}`,
        headers: admin,
        payload: { name: 'moving', ...payload },
      });
    try {
      const bare = await move({ url: elsewhereUrl });
      expect(bare.statusCode).toBe(400);
      expect(messages(bare)[0]).toBe(DEPLOYMENT_MESSAGES.urlChangeNeedsPairing);
      const withToken = await move({ url: elsewhereUrl, pairing_token: 'arcapair_not-from-there' });
      expect(withToken.statusCode).toBe(400);
      // the new address got the pairing token given for it, never the service token of the old one
      expect(seen.length).toBeGreaterThan(0);
      for (const request of seen) expect(request.authorization + request.body).not.toContain(serviceToken);
      // nothing changed
      const kept = (await management.app.inject({ url: `${API}/${id}`, headers: admin })).json();
      expect(kept.url).toBe(other.url);
      expect(await deploymentToken(management.app, id)).toBe(serviceToken);
      // a deployment moved to a new address (restored there) pairs with a token made there
      const movedTo = await listening(engine);
      try {
        const moved = await move({ url: movedTo.url, pairing_token: await pairingToken(movedTo) });
        expect(moved.statusCode).toBe(200);
        expect(moved.json()).toMatchObject({ url: movedTo.url, status: 'ONLINE' });
        expect(await deploymentToken(management.app, id)).not.toBe(serviceToken);
      } finally {
        await movedTo.close();
      }
    } finally {
      await new Promise((resolve) => elsewhere.close(resolve));
      await management.app.inject({ method: 'DELETE', url: `${API}/${id}`, headers: admin });
    }
  });
});
