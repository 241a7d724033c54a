import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPLOYMENT_MESSAGES, FEDERATION_MESSAGES } from '@arca/contracts';
import { consumerStates } from '../../core/outbox.js';
import { ADMIN_BASIC, ENGINES, startListeningApp as listening } from '../../test/harness.js';

type Instance = Awaited<ReturnType<typeof listening>>;

/** A call over the instance's port, as an administrator (the console's CSRF header included). */
async function call(at: Instance, method: string, path: string, body?: unknown, auth = ADMIN_BASIC.authorization) {
  const res = await fetch(`${at.url}${path}`, {
    method,
    headers: {
      authorization: auth,
      'x-requested-with': 'XMLHttpRequest',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of many shapes, read by the assertions
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Waits (up to 20 s) until `check` holds: federation is asynchronous by design. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Waits until every federation sender of `at` has handled each change recorded so far: what it was to send has arrived. */
async function allSent(at: Instance): Promise<void> {
  await eventually(
    async () =>
      (await consumerStates(at.app.db)).filter((c) => c.name.startsWith('federation:')).every((c) => c.pending === 0),
    'the federation senders to catch up',
  );
}

const userOn = async (at: Instance, name: string) =>
  at.app.db.selectFrom('users').selectAll().where('name', '=', name).executeTakeFirst();

const FED = '/ui/api/v1/mc/api/v1/federation';

describe.each(ENGINES)('access federation on %s', (engine) => {
  let management: Instance;
  let east: Instance;
  let west: Instance;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    [management, east, west] = await Promise.all([listening(engine), listening(engine), listening(engine)]);
    for (const [name, target] of [
      ['east', east],
      ['west', west],
    ] as const) {
      const pairing = await call(target, 'POST', '/access/api/v1/pairing/token');
      const registered = await call(management, 'POST', '/ui/api/v1/mc/api/v1/deployments', {
        name,
        url: target.url,
        pairing_token: pairing.json.token,
      });
      expect(registered.status).toBe(201);
      ids[name] = registered.json.id;
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all([management?.close(), east?.close(), west?.close()]);
  });

  it('refuses a federation without entity types, members or with an unknown member, and changes nothing', async () => {
    const none = await call(management, 'POST', FED, {
      topology: 'MESH',
      members: ['local', ids.east],
      entity_types: [],
    });
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.json)).toContain(FEDERATION_MESSAGES.noEntity);
    const alone = await call(management, 'POST', FED, {
      topology: 'MESH',
      members: ['local'],
      entity_types: ['USERS'],
    });
    expect(JSON.stringify(alone.json)).toContain(FEDERATION_MESSAGES.meshMembers);
    const self = await call(management, 'POST', FED, {
      topology: 'STAR',
      source: ids.east,
      members: [ids.east],
      entity_types: ['USERS'],
    });
    expect(JSON.stringify(self.json)).toContain(FEDERATION_MESSAGES.sourceIsTarget);
    const ghost = await call(management, 'POST', FED, {
      topology: 'MESH',
      members: ['local', 'nobody'],
      entity_types: ['USERS'],
    });
    expect(ghost.status).toBe(400);
    expect((await call(management, 'GET', FED)).json).toEqual([]);
    expect((await call(east, 'GET', '/access/api/v1/federation/member')).json.federated).toBe(false);
    const broadcast = await call(management, 'POST', '/ui/api/v1/access/system/broadcast', { source: ids.east });
    expect(broadcast.status).toBe(409);
    expect(JSON.stringify(broadcast.json)).toContain(FEDERATION_MESSAGES.noTargets);
  });

  it('keeps users, groups, permissions and tokens alike in a full mesh, catches up a member that was down, settles conflicts', async () => {
    // a user made before the federation: only a broadcast brings it over
    await call(east, 'PUT', '/artifactory/api/security/users/early', { email: 'early@x.io', password: 'Early-pass-1' });
    const saved = await call(management, 'POST', FED, {
      topology: 'MESH',
      members: ['local', ids.east, ids.west],
      entity_types: ['USERS', 'GROUPS', 'PERMISSIONS', 'TOKENS'],
      permissions_filter: { include_patterns: [], exclude_patterns: ['local-*'] },
    });
    expect(saved.status).toBe(201);
    expect(saved.json).toHaveLength(3);
    const list = (await call(management, 'GET', FED)).json as { source: { name: string }; targets: unknown[] }[];
    expect(list.map((f) => f.source.name).sort()).toEqual(['Arca', 'east', 'west'].sort());
    expect(list.every((f) => f.targets.length === 2)).toBe(true);

    // a user made on east signs in on west with the same password; its group and a permission follow
    await call(east, 'PUT', '/artifactory/api/security/groups/builders', { description: 'CI' });
    await call(east, 'PUT', '/artifactory/api/security/users/alice', {
      email: 'alice@x.io',
      password: 'Alice-pass-1',
      groups: ['builders'],
    });
    await eventually(async () => (await userOn(west, 'alice')) !== undefined, 'alice on west');
    await eventually(
      async () => (await userOn(management, 'alice')) !== undefined,
      'alice on the management deployment',
    );
    await eventually(
      async () =>
        (await call(west, 'GET', '/artifactory/api/security/users/alice')).json.groups?.includes('builders') === true,
      'alice in builders on west',
    );
    expect((await call(west, 'GET', '/access/api/v1/tokens', undefined, basic('alice', 'Alice-pass-1'))).status).toBe(
      200,
    );
    const target = {
      name: 'shared-read',
      repo: { repositories: ['ANY'], actions: { groups: { builders: ['read'] } } },
    };
    await call(west, 'PUT', '/artifactory/api/v2/security/permissions/shared-read', target);
    await call(west, 'PUT', '/artifactory/api/v2/security/permissions/local-only', { ...target, name: 'local-only' });
    await eventually(
      async () => (await call(east, 'GET', '/artifactory/api/v2/security/permissions/shared-read')).status === 200,
      'the permission on east',
    );
    // the filter keeps local-* where it was made
    expect((await call(east, 'GET', '/artifactory/api/v2/security/permissions/local-only')).status).toBe(404);

    // a token made on west works on east
    const token = await call(
      west,
      'POST',
      '/access/api/v1/tokens',
      { description: 'ci', expires_in: 0 },
      basic('alice', 'Alice-pass-1'),
    );
    await eventually(
      async () =>
        (await call(east, 'GET', '/artifactory/api/system/ping', undefined, `Bearer ${token.json.access_token}`))
          .status === 200 &&
        (await east.app.db
          .selectFrom('access_tokens')
          .select('id')
          .where('id', '=', token.json.token_id)
          .executeTakeFirst()) !== undefined,
      'the token on east',
    );

    // west stops listening; changes on east wait for it and arrive when it is back, in full
    await new Promise((resolve) => west.app.server.close(resolve));
    for (const n of [1, 2, 3, 4, 5])
      await call(east, 'PUT', `/artifactory/api/security/users/batch${n}`, {
        email: `b${n}@x.io`,
        password: 'Batch-pass-1',
      });
    await call(east, 'DELETE', '/artifactory/api/security/users/batch3');
    await call(east, 'POST', '/artifactory/api/security/users/alice', { email: 'alice@east.io' });
    await new Promise((r) => setTimeout(r, 5));
    // meanwhile west changes alice too, later: the later change wins everywhere
    const res = await west.app.inject({
      method: 'POST',
      url: '/artifactory/api/security/users/alice',
      headers: ADMIN_BASIC,
      payload: { email: 'alice@west.io' },
    });
    expect(res.statusCode).toBe(200);
    await new Promise<void>((resolve) => west.app.server.listen(west.port, '127.0.0.1', resolve));
    await eventually(async () => {
      const names = (await west.app.db.selectFrom('users').select('name').where('name', 'like', 'batch%').execute())
        .map((r) => r.name)
        .sort();
      return names.join() === 'batch1,batch2,batch4,batch5';
    }, 'west to catch up');
    await eventually(
      async () =>
        (await userOn(east, 'alice'))?.email === 'alice@west.io' &&
        (await userOn(west, 'alice'))?.email === 'alice@west.io' &&
        (await userOn(management, 'alice'))?.email === 'alice@west.io',
      'every member to keep the later change',
    );
    // east had changed alice too when west's change came: it reports the conflict, and the version kept
    const eastState = (await call(management, 'GET', `${FED}/${ids.east}/state`)).json;
    expect(eastState.conflicts).toEqual([
      expect.objectContaining({ entity_type: 'USERS', name: 'alice', kept: 'remote', peer: 'west' }),
    ]);
    expect(eastState.peers).toHaveLength(2);
    await eventually(
      async () =>
        ((await call(management, 'GET', `${FED}/${ids.east}/state`)).json.peers as { pending: number }[]).every(
          (p) => p.pending === 0,
        ),
      'east to have nothing pending',
    );

    // a broadcast brings what was there before the federation
    expect(await userOn(west, 'early')).toBeUndefined();
    const broadcast = await call(management, 'POST', '/ui/api/v1/access/system/broadcast', { source: ids.east });
    expect(broadcast.json).toMatchObject({ message: FEDERATION_MESSAGES.broadcastStarted, sent: 2, failed: [] });
    expect((await call(west, 'GET', '/access/api/v1/tokens', undefined, basic('early', 'Early-pass-1'))).status).toBe(
      200,
    );

    // Delete All: every member leaves; a change stays where it is made
    const removed = await call(management, 'DELETE', `${FED}/${ids.west}`);
    expect(removed.json.message).toBe(FEDERATION_MESSAGES.deleted);
    expect((await call(management, 'GET', FED)).json).toEqual([]);
    expect((await call(east, 'GET', '/access/api/v1/federation/member')).json.federated).toBe(false);
    await call(east, 'PUT', '/artifactory/api/security/users/after', { email: 'a@x.io', password: 'After-pass-1' });
    await allSent(east);
    expect(await userOn(west, 'after')).toBeUndefined();
    // the tokens the members held for each other are revoked
    const left = await west.app.db
      .selectFrom('access_tokens')
      .select('description')
      .where('description', 'like', 'Access federation%')
      .execute();
    expect(left).toEqual([]);
  }, 120_000);

  it('sends only outwards in a star', async () => {
    const saved = await call(management, 'POST', FED, {
      topology: 'STAR',
      source: 'local',
      members: [ids.east, ids.west],
      entity_types: ['USERS'],
    });
    expect(saved.status).toBe(201);
    await call(management, 'PUT', '/artifactory/api/security/users/hub-user', {
      email: 'h@x.io',
      password: 'Hub-pass-1',
    });
    await eventually(
      async () => (await userOn(east, 'hub-user')) !== undefined && (await userOn(west, 'hub-user')) !== undefined,
      'the hub user on both targets',
    );
    await call(east, 'PUT', '/artifactory/api/security/users/spoke-user', {
      email: 's@x.io',
      password: 'Spoke-pass-1',
    });
    await allSent(east);
    expect(await userOn(management, 'spoke-user')).toBeUndefined();
    expect(await userOn(west, 'spoke-user')).toBeUndefined();
    // nor can it be unregistered
    const unregister = await call(management, 'DELETE', `/ui/api/v1/mc/api/v1/deployments/${ids.west}`);
    expect(unregister.status).toBe(409);
    expect(JSON.stringify(unregister.json)).toContain(DEPLOYMENT_MESSAGES.inFederation);
    // a target of this star cannot join another federation until it leaves
    const busy = await call(management, 'POST', FED, {
      topology: 'MESH',
      members: [ids.east, ids.west],
      entity_types: ['USERS'],
    });
    expect(busy.status).toBe(409);
    expect(JSON.stringify(busy.json)).toContain(FEDERATION_MESSAGES.busy);
    expect((await call(management, 'DELETE', `${FED}/local`)).status).toBe(200);
  }, 60_000);

  it("leaves each target's built-in administrator its own password unless the broadcast is told to send it", async () => {
    const saved = await call(management, 'POST', FED, {
      topology: 'STAR',
      source: 'local',
      members: [ids.east],
      entity_types: ['USERS'],
    });
    expect(saved.status).toBe(201);
    const signsIn = async (auth: string) => (await call(east, 'GET', '/access/api/v1/tokens', undefined, auth)).status;
    // east's administrator chose its own password
    const eastAdmin = basic('admin', 'East-admin-pass-9');
    expect(
      (await call(east, 'POST', '/artifactory/api/security/users/admin', { password: 'East-admin-pass-9' })).status,
    ).toBeLessThan(300);
    expect(await signsIn(eastAdmin)).toBe(200);

    // a change of the source's admin travels, its password does not
    await call(management, 'POST', '/artifactory/api/security/users/admin', { email: 'root@hq.io' });
    await eventually(async () => (await userOn(east, 'admin'))?.email === 'root@hq.io', "the admin's e-mail on east");
    expect(await signsIn(eastAdmin)).toBe(200);
    expect(await signsIn(ADMIN_BASIC.authorization)).toBe(401);

    // a broadcast as it is by default: still east's own password
    const plain = await call(management, 'POST', '/ui/api/v1/access/system/broadcast', { source: 'local' });
    expect(plain.json).toMatchObject({ message: FEDERATION_MESSAGES.broadcastStarted, sent: 1, failed: [] });
    expect(await signsIn(eastAdmin)).toBe(200);
    expect(await signsIn(ADMIN_BASIC.authorization)).toBe(401);

    // ticked: the source's password replaces east's, and the audit log says it was sent
    const ticked = await call(management, 'POST', '/ui/api/v1/access/system/broadcast', {
      source: 'local',
      admin_credentials: true,
    });
    expect(ticked.json).toMatchObject({ sent: 1, failed: [] });
    expect(await signsIn(ADMIN_BASIC.authorization)).toBe(200);
    expect(await signsIn(eastAdmin)).toBe(401);
    const audit = await management.app.db
      .selectFrom('audit_events')
      .select('details')
      .where('action', '=', 'broadcast access federation')
      .orderBy('at', 'desc')
      .limit(2)
      .execute();
    expect(audit.map((a) => JSON.parse(a.details).after)).toEqual([
      { builtInAdminCredentials: true },
      { builtInAdminCredentials: false },
    ]);
    expect((await call(management, 'DELETE', `${FED}/local`)).status).toBe(200);
  }, 60_000);
});
