import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LDAP_MESSAGES, formatMessage } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  basic,
  createRepo,
  enrolTotp,
  messages,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';
import {
  LDAP_ADMIN_DN,
  LDAP_ADMIN_PASSWORD,
  LDAP_SUFFIX,
  startLdapServer,
  type LdapServer,
} from '../../test/ldap-server.js';

const API = '/ui/api/v1/ui/ldap';
const admin = { ...ADMIN_BASIC, ...XHR };
const alice = basic('alice', 'alice-directory-pw');

describe.each(ENGINES)('LDAP sign-in on %s', (engine) => {
  let t: TestApp;
  let ldap: LdapServer;
  /** The setting the tests save: users found by a search as the manager, below ou=people. */
  let setting: Record<string, unknown>;

  beforeAll(async () => {
    ldap = await startLdapServer();
    // every basic-auth request asks the directory again: what a client sees once the cache has passed
    t = await startTestApp(engine, { ARCA_CREDENTIALS_CACHE_SECONDS: '0', ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    setting = {
      key: 'corp',
      ldapUrl: `${ldap.url}/${LDAP_SUFFIX}`,
      searchFilter: '(uid={0})',
      searchBase: 'ou=people',
      searchSubTree: true,
      managerDn: LDAP_ADMIN_DN,
      managerPassword: LDAP_ADMIN_PASSWORD,
      emailAttribute: 'mail',
      autoCreateUser: true,
    };
    await createRepo(t.app, 'team-local', { rclass: 'local', packageType: 'generic' });
    await put(t.app, '/artifactory/team-local/plan.txt', 'the plan', ADMIN_BASIC);
  });
  afterAll(async () => {
    await t?.close();
    await ldap?.stop();
  });

  const test = async (body: object) =>
    (await t.app.inject({ method: 'POST', url: `${API}/test`, headers: admin, payload: body })).json();

  it('reaches no directory on this host or a link-local address unless the outbound policy allows it', async () => {
    for (const host of ['169.254.169.254', '127.0.0.2', 'localhost']) {
      const refused = await test({ setting: { ...setting, ldapUrl: `ldap://${host}:389/dc=acme,dc=test` } });
      expect(refused.ok, host).toBe(false);
      expect(refused.message, host).toMatch(
        new RegExp(`^Could not connect to ldap://${host}:389.*'${host}' resolves to`),
      );
      expect(refused.message, host).toContain('which outbound requests may not reach.');
    }
  });

  it('tests a setting and says exactly what failed', async () => {
    expect(await test({ setting })).toEqual({ ok: true, message: LDAP_MESSAGES.connectionOk, user: null });
    expect(await test({ setting: { ...setting, managerPassword: 'wrong' } })).toMatchObject({
      ok: false,
      message: formatMessage(LDAP_MESSAGES.bindRefused, { dn: LDAP_ADMIN_DN }),
    });
    expect(await test({ setting: { ...setting, searchBase: 'ou=nowhere' } })).toMatchObject({
      ok: false,
      message: formatMessage(LDAP_MESSAGES.baseNotFound, { base: `ou=nowhere,${LDAP_SUFFIX}` }),
    });
    expect(await test({ setting: { ...setting, searchFilter: '(uid={0}' } })).toMatchObject({
      ok: false,
      message: formatMessage(LDAP_MESSAGES.filterInvalid, { filter: '(uid={0}' }),
    });
    const closed = await test({ setting: { ...setting, ldapUrl: 'ldap://127.0.0.1:1/dc=x' } });
    expect(closed.message).toBe(
      formatMessage(LDAP_MESSAGES.connectFailed, {
        url: 'ldap://127.0.0.1:1/dc=x',
        reason: 'the connection was refused.',
      }),
    );
    expect(await test({ setting, username: 'nobody', password: 'x' })).toMatchObject({
      ok: false,
      message: formatMessage(LDAP_MESSAGES.userNotFound, { user: 'nobody' }),
    });
    expect(await test({ setting, username: 'alice', password: 'wrong' })).toMatchObject({
      ok: false,
      message: formatMessage(LDAP_MESSAGES.passwordRefused, {
        user: 'alice',
        dn: `uid=alice,ou=people,${LDAP_SUFFIX}`,
      }),
    });
    expect(await test({ setting, username: 'alice', password: 'alice-directory-pw' })).toEqual({
      ok: true,
      message: `Signed in as uid=alice,ou=people,${LDAP_SUFFIX}.`,
      user: { dn: `uid=alice,ou=people,${LDAP_SUFFIX}`, email: 'alice@acme.test', groups: [] },
    });
  });

  it('saves settings with the manager password sealed and never answered; refuses bad ones and keeps nothing', async () => {
    const refused = async (body: object) => {
      const res = await t.app.inject({ method: 'POST', url: `${API}/settings`, headers: admin, payload: body });
      expect(res.statusCode).toBe(400);
      return messages(res)[0];
    };
    expect(await refused({ ...setting, ldapUrl: 'http://example.com' })).toBe(`ldapUrl: ${LDAP_MESSAGES.urlInvalid}`);
    expect(await refused({ ...setting, searchFilter: '', userDnPattern: '' })).toBe(
      `userDnPattern: ${LDAP_MESSAGES.userLookupMissing}`,
    );
    expect(await refused({ ...setting, searchFilter: '(uid=alice)' })).toBe(
      `searchFilter: ${LDAP_MESSAGES.filterWithoutPlaceholder}`,
    );
    expect((await t.app.inject({ method: 'GET', url: `${API}/settings`, headers: admin })).json()).toEqual([]);

    const saved = await t.app.inject({ method: 'POST', url: `${API}/settings`, headers: admin, payload: setting });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toMatchObject({ key: 'corp', managerPasswordSet: true });
    expect(saved.json()).not.toHaveProperty('managerPassword');
    const row = await t.app.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'ldap.settings')
      .executeTakeFirst();
    expect(row!.value).not.toContain(LDAP_ADMIN_PASSWORD);
    // an update without the password keeps it: the test still binds
    const { managerPassword: _, ...withoutPassword } = setting;
    const updated = await t.app.inject({
      method: 'PUT',
      url: `${API}/settings/corp`,
      headers: admin,
      payload: withoutPassword,
    });
    expect(updated.json().managerPasswordSet).toBe(true);
    expect((await test({ setting: withoutPassword })).ok).toBe(true);
    const again = await t.app.inject({ method: 'POST', url: `${API}/settings`, headers: admin, payload: setting });
    expect(messages(again)[0]).toBe(formatMessage(LDAP_MESSAGES.keyTaken, { key: 'corp' }));
    // Access's call shows the same setting
    const access = await t.app.inject({
      method: 'GET',
      url: '/access/api/v1/ldap/settings/corp',
      headers: ADMIN_BASIC,
    });
    expect(access.json()).toMatchObject({
      key: 'corp',
      ldap_url: setting.ldapUrl,
      search: { search_filter: '(uid={0})', manager_password: null },
    });
  });

  it('imports directory groups, and a permission on a directory group follows the directory', async () => {
    const groups = await t.app.inject({
      method: 'POST',
      url: `${API}/groups`,
      headers: admin,
      payload: { name: 'corp-groups', ldapSettingKey: 'corp', groupBaseDn: 'ou=groups', strategy: 'STATIC' },
    });
    expect(groups.statusCode).toBe(201);
    const listed = (
      await t.app.inject({ method: 'GET', url: `${API}/groups/corp-groups/directory`, headers: admin })
    ).json();
    expect(listed.map((g: { name: string; imported: boolean }) => `${g.name}:${g.imported}`)).toEqual([
      'developers:false',
      'readers:false',
    ]);
    const imported = await t.app.inject({
      method: 'POST',
      url: `${API}/groups/corp-groups/import`,
      headers: admin,
      payload: { names: ['developers'] },
    });
    expect(imported.json()).toEqual({ imported: ['developers'] });
    const group = await t.app.db.selectFrom('groups').selectAll().where('name', '=', 'developers').executeTakeFirst();
    expect(group).toMatchObject({ realm: 'ldap', description: 'Everyone who builds' });
    const permission = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/v2/security/permissions/team',
      headers: ADMIN_BASIC,
      payload: {
        name: 'team',
        repo: { repositories: ['team-local'], actions: { groups: { developers: ['read', 'write'] } } },
      },
    });
    expect(permission.statusCode).toBe(201);

    // alice, in the directory's developers, reads with her directory password; bob is no developer
    const read = await t.app.inject({ method: 'GET', url: '/artifactory/team-local/plan.txt', headers: alice });
    expect(read.statusCode).toBe(200);
    expect(read.body).toBe('the plan');
    const user = await t.app.db.selectFrom('users').selectAll().where('name', '=', 'alice').executeTakeFirst();
    expect(user).toMatchObject({
      realm: 'ldap',
      email: 'alice@acme.test',
      external_source: 'corp',
      password_hash: null,
    });
    const bob = await t.app.inject({
      method: 'GET',
      url: '/artifactory/team-local/plan.txt',
      headers: basic('bob', 'bob-directory-pw'),
    });
    expect(bob.statusCode).toBe(403);
    const deploy = await put(t.app, '/artifactory/team-local/alice.txt', 'hello', alice);
    expect(deploy.statusCode).toBe(201);

    // out of the group in the directory: out of the permission at the next request
    await ldap.modify(`cn=developers,ou=groups,${LDAP_SUFFIX}`, 'delete', 'member', [
      `uid=alice,ou=people,${LDAP_SUFFIX}`,
    ]);
    const after = await t.app.inject({ method: 'GET', url: '/artifactory/team-local/plan.txt', headers: alice });
    expect(after.statusCode).toBe(403);
    await ldap.modify(`cn=developers,ou=groups,${LDAP_SUFFIX}`, 'add', 'member', [
      `uid=alice,ou=people,${LDAP_SUFFIX}`,
    ]);
  });

  it('signs directory users in to the console, refuses wrong passwords and users the directory dropped', async () => {
    const session = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/login',
      headers: XHR,
      payload: { user: 'alice', password: 'alice-directory-pw' },
    });
    expect(session.statusCode).toBe(200);
    const audit = await t.app.db
      .selectFrom('audit_events')
      .select(['action', 'target', 'details'])
      .where('category', '=', 'auth')
      .where('target', '=', 'alice')
      .execute();
    expect(audit.some((a) => a.action === 'sign-in' && a.details.includes("directory 'corp'"))).toBe(true);

    const wrong = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/login',
      headers: XHR,
      payload: { user: 'alice', password: 'not-hers' },
    });
    expect(wrong.statusCode).toBe(401);
    const failures = await t.app.db
      .selectFrom('login_failures')
      .selectAll()
      .where('user_name', '=', 'alice')
      .executeTakeFirst();
    expect(failures?.failures).toBe(1);

    // a directory user's password is the directory's: it is not changed here
    const change = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/changePassword',
      headers: XHR,
      payload: {
        userName: 'alice',
        oldPassword: 'alice-directory-pw',
        newPassword1: 'N3w-password!x',
        newPassword2: 'N3w-password!x',
      },
    });
    expect(change.statusCode).toBe(400);
    expect(messages(change)[0]).toBe(LDAP_MESSAGES.passwordInDirectory);

    await ldap.remove(`uid=bob,ou=people,${LDAP_SUFFIX}`);
    await t.app.inject({
      method: 'GET',
      url: '/artifactory/api/repositories',
      headers: basic('bob', 'bob-directory-pw'),
    });
    const gone = await t.app.inject({
      method: 'GET',
      url: '/artifactory/api/repositories',
      headers: basic('bob', 'bob-directory-pw'),
    });
    expect(gone.statusCode).toBe(401);
  });

  it('finds groups by the users’ memberOf and by the units above them', async () => {
    const carol = basic('carol', 'carol-directory-pw');
    for (const payload of [
      {
        name: 'by-member-of',
        ldapSettingKey: 'corp',
        groupBaseDn: 'ou=groups',
        strategy: 'DYNAMIC',
        groupMemberAttribute: 'memberOf',
      },
      { name: 'by-unit', ldapSettingKey: 'corp', groupBaseDn: 'ou=people', strategy: 'HIERARCHICAL', filter: '' },
    ]) {
      expect((await t.app.inject({ method: 'POST', url: `${API}/groups`, headers: admin, payload })).statusCode).toBe(
        201,
      );
    }
    const units = (
      await t.app.inject({ method: 'GET', url: `${API}/groups/by-unit/directory`, headers: admin })
    ).json();
    expect(units.map((g: { name: string }) => g.name)).toEqual(['eng']);
    await t.app.inject({
      method: 'POST',
      url: `${API}/groups/by-unit/import`,
      headers: admin,
      payload: { names: ['eng'] },
    });
    const tested = await test({ setting: { ...setting }, username: 'carol', password: 'carol-directory-pw' });
    expect(tested.user.groups).toEqual(['developers', 'eng']);
    expect(
      (await t.app.inject({ method: 'GET', url: '/artifactory/team-local/plan.txt', headers: carol })).statusCode,
    ).toBe(200);
    const memberships = await t.app.db
      .selectFrom('group_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('m.group_name')
      .where('u.name', '=', 'carol')
      .orderBy('m.group_name')
      .execute();
    expect(memberships.map((m) => m.group_name)).toEqual(['developers', 'eng']);
    // a setting still used by group settings is not deleted
    const used = await t.app.inject({ method: 'DELETE', url: `${API}/settings/corp`, headers: admin });
    expect(messages(used)[0]).toBe(
      formatMessage(LDAP_MESSAGES.inUse, { key: 'corp', names: 'corp-groups, by-member-of, by-unit' }),
    );
  });

  it('leads every spelling of a name to the entry’s one account, with its second factor and lockout', async () => {
    await ldap.add(`uid=lalice,ou=people,${LDAP_SUFFIX}`, {
      objectClass: ['inetOrgPerson'],
      uid: 'lalice',
      cn: 'Lalice Liddell',
      sn: 'Liddell',
      mail: 'lalice@acme.test',
      userPassword: 'lalice-directory-pw',
    });
    const accounts = () =>
      t.app.db
        .selectFrom('users')
        .select(['name', 'realm'])
        .where(sql<string>`lower(name)`, 'like', '%lalice%')
        .execute();
    // the REST door: every spelling reads as lalice, and no second account is made
    for (const typed of ['lalice', 'Lalice', 'LALICE', ' lalice', 'lalice ']) {
      const me = await t.app.inject({
        method: 'GET',
        url: '/artifactory/api/repositories',
        headers: basic(typed, 'lalice-directory-pw'),
      });
      expect(me.statusCode, typed).toBe(200);
    }
    expect(await accounts()).toEqual([{ name: 'lalice', realm: 'ldap' }]);

    // her second factor holds whatever she types
    const { secret } = await enrolTotp(t.app, 'lalice', 'lalice-directory-pw');
    expect(secret).toBeTruthy();
    for (const typed of ['LALICE', ' Lalice']) {
      const signIn = await t.app.inject({
        method: 'POST',
        url: '/ui/api/v1/ui/auth/login',
        headers: XHR,
        payload: { user: typed, password: 'lalice-directory-pw' },
      });
      expect(signIn.statusCode).toBe(200);
      expect(signIn.json()).toMatchObject({ mfaStatus: 'verify', userName: 'lalice' });
      expect(signIn.cookies.find((c) => c.name === 'arca_session')).toBeUndefined();
    }

    // wrong passwords count on the one account, however the name is spelt
    for (const typed of ['Lalice', 'LALICE', ' lalice']) {
      const wrong = await t.app.inject({
        method: 'GET',
        url: '/artifactory/api/repositories',
        headers: basic(typed, 'not-hers'),
      });
      expect(wrong.statusCode).toBe(401);
    }
    const failures = await t.app.db.selectFrom('login_failures').selectAll().execute();
    expect(failures.filter((f) => f.user_name.toLowerCase().includes('lalice'))).toEqual([
      expect.objectContaining({ user_name: 'lalice', failures: 3 }),
    ]);
    expect(await accounts()).toEqual([{ name: 'lalice', realm: 'ldap' }]);

    // two accounts of one entry (made before names were compared this way) are refused, not guessed
    await t.app.db
      .insertInto('users')
      .values({
        id: 'dup-lalice',
        name: 'Lalice',
        email: null,
        password_hash: null,
        admin: 0,
        disable_ui_access: 0,
        must_change_password: 0,
        realm: 'ldap',
        external_source: 'corp',
        created_at: Date.now(),
        last_login_at: null,
        mfa_secret: null,
        mfa_enrolled_at: null,
        password_changed_at: null,
        mfa_last_step: null,
      })
      .execute();
    const refused = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/auth/login',
      headers: XHR,
      payload: { user: 'LALICE', password: 'lalice-directory-pw' },
    });
    expect(refused.statusCode).toBe(401);
    expect(messages(refused)[0]).toBe(
      formatMessage(LDAP_MESSAGES.duplicateAccounts, {
        dn: `uid=lalice,ou=people,${LDAP_SUFFIX}`,
        names: 'lalice, Lalice',
      }),
    );
    await t.app.db.deleteFrom('users').where('id', '=', 'dup-lalice').execute();
  });

  it('reaches the directory over LDAPS and StartTLS once its certificate is trusted', async () => {
    const ldaps = { ...setting, key: 'corp-tls', ldapUrl: `${ldap.ldapsUrl}/${LDAP_SUFFIX}` };
    const startTls = { ...setting, key: 'corp-starttls', startTls: true };
    // a certificate no one vouches for is refused
    for (const candidate of [ldaps, startTls]) {
      const refused = await test({ setting: candidate });
      expect(refused.ok).toBe(false);
      expect(refused.message).toMatch(/^Could not connect to .*(self-signed|certificate)/);
    }
    const trust = await t.app.inject({
      method: 'POST',
      url: '/ui/api/v1/ui/security/certificates',
      headers: admin,
      payload: { alias: 'directory-ca', kind: 'trusted', pem: ldap.certificate },
    });
    expect(trust.statusCode).toBe(201);
    for (const candidate of [ldaps, startTls]) {
      expect(await test({ setting: candidate, username: 'alice', password: 'alice-directory-pw' })).toMatchObject({
        ok: true,
        user: { email: 'alice@acme.test' },
      });
    }
  });
});
