import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSH_MESSAGES, SSH_TOKEN_SECONDS, formatMessage } from '@arca/contracts';
import { ADMIN_BASIC, ENGINES, XHR, createUser, messages, startTestApp, type TestApp } from '../../test/harness.js';
import { freePort } from '../../test/free-port.js';

const SERVER = '/ui/api/v1/ui/security/sshServer';
const MINE = '/ui/api/v1/ui/userProfile/sshKeys';

/** A key made by OpenSSH's ssh-keygen: its files and the fingerprint ssh-keygen prints. */
function makeKey(dir: string, name: string, type: 'ed25519' | 'rsa' | 'ecdsa', bits?: number) {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', [
    '-q',
    '-t',
    type,
    ...(bits ? ['-b', String(bits)] : []),
    '-N',
    '',
    '-C',
    `${name}@laptop`,
    '-f',
    file,
  ]);
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`])
    .toString()
    .split(' ')[1]!;
  return { file, publicKey: fs.readFileSync(`${file}.pub`, 'utf8'), fingerprint };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe.each(ENGINES)('SSH server on %s', (engine) => {
  let t: TestApp;
  let dir: string;
  let sshPort: number;
  let httpPort: number;
  let knownHosts: string;
  let dev: Record<string, string>;

  /** The real OpenSSH client, checking the host key against the line the console shows. */
  const ssh = (key: string, command: string[], port = sshPort): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        'ssh',
        [
          '-p',
          String(port),
          '-i',
          key,
          '-F',
          'none',
          '-o',
          'BatchMode=yes',
          '-o',
          'IdentitiesOnly=yes',
          '-o',
          'StrictHostKeyChecking=yes',
          '-o',
          `UserKnownHostsFile=${knownHosts}`,
          '-o',
          'ConnectTimeout=10',
          'dev@127.0.0.1',
          ...command,
        ],
        { timeout: 30_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  beforeAll(async () => {
    t = await startTestApp(engine);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-ssh-'));
    fs.chmodSync(dir, 0o700);
    knownHosts = path.join(dir, 'known_hosts');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    httpPort = (t.app.server.address() as AddressInfo).port;
    sshPort = await freePort();
    dev = { ...(await createUser(t.app, 'dev')), ...XHR };
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('registers the keys users add, refuses what is no fitting public key and stores nothing then', async () => {
    const ed = makeKey(dir, 'ed', 'ed25519');
    const added = await t.app.inject({
      method: 'POST',
      url: MINE,
      headers: dev,
      payload: { title: 'Laptop', publicKey: ed.publicKey },
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      user: 'dev',
      title: 'Laptop',
      algorithm: 'ssh-ed25519',
      fingerprint: ed.fingerprint,
    });
    expect(added.json().lastUsed).toBeNull();

    const refused = async (payload: object, status = 400) => {
      const res = await t.app.inject({ method: 'POST', url: MINE, headers: dev, payload });
      expect(res.statusCode).toBe(status);
      return messages(res)[0];
    };
    expect(await refused({ title: 'Again', publicKey: ed.publicKey }, 409)).toBe(
      formatMessage(SSH_MESSAGES.keyTaken, { user: 'dev' }),
    );
    expect(await refused({ title: 'Private', publicKey: fs.readFileSync(ed.file, 'utf8') })).toBe(
      SSH_MESSAGES.publicKeyInvalid,
    );
    expect(await refused({ title: 'Garbage', publicKey: 'ssh-ed25519 bm90IGEga2V5' })).toBe(
      SSH_MESSAGES.publicKeyInvalid,
    );
    const weak = makeKey(dir, 'weak', 'rsa', 1024);
    expect(await refused({ title: 'Weak', publicKey: weak.publicKey })).toBe(
      'An RSA key has 2048 bits at least; this one has 1024.',
    );
    expect(await refused({ title: ' ', publicKey: weak.publicKey })).toBe(`title: ${SSH_MESSAGES.titleMissing}`);
    // another user is not told whose key it is
    const other = { ...(await createUser(t.app, 'other')), ...XHR };
    const taken = await t.app.inject({
      method: 'POST',
      url: MINE,
      headers: other,
      payload: { title: 'x', publicKey: ed.publicKey },
    });
    expect(messages(taken)[0]).toBe(formatMessage(SSH_MESSAGES.keyTaken, { user: 'another user' }));

    const mine = (await t.app.inject({ method: 'GET', url: MINE, headers: dev })).json();
    expect(mine.map((k: { title: string }) => k.title)).toEqual(['Laptop']);
    expect((await t.app.inject({ method: 'GET', url: MINE, headers: other })).json()).toEqual([]);
    // one user cannot remove another's key
    const foreign = await t.app.inject({ method: 'DELETE', url: `${MINE}/${added.json().id}`, headers: other });
    expect(foreign.statusCode).toBe(404);
    expect(await t.app.db.selectFrom('ssh_keys').select('id').execute()).toHaveLength(1);
  });

  it('turns on with a host key clients can check, refuses a port it cannot take and changes nothing then', async () => {
    const off = (await t.app.inject({ method: 'GET', url: SERVER, headers: ADMIN_BASIC })).json();
    expect(off).toMatchObject({ enabled: false, port: 1339, listening: false, hostKey: null });

    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const blocked = (blocker.address() as AddressInfo).port;
    const refused = await t.app.inject({
      method: 'PUT',
      url: SERVER,
      headers: { ...ADMIN_BASIC, ...XHR },
      payload: { enabled: true, port: blocked },
    });
    await new Promise((resolve) => blocker.close(resolve));
    expect(refused.statusCode).toBe(400);
    expect(messages(refused)[0]).toBe(`The port ${blocked} is in use on this node.`);
    const http = await t.app.inject({
      method: 'PUT',
      url: SERVER,
      headers: { ...ADMIN_BASIC, ...XHR },
      payload: { enabled: true, port: httpPort },
    });
    expect(messages(http)[0]).toBe(SSH_MESSAGES.portTaken);
    expect((await t.app.inject({ method: 'GET', url: SERVER, headers: ADMIN_BASIC })).json()).toMatchObject({
      enabled: false,
      hostKey: null,
    });

    const on = await t.app.inject({
      method: 'PUT',
      url: SERVER,
      headers: { ...ADMIN_BASIC, ...XHR },
      payload: { enabled: true, port: sshPort },
    });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ enabled: true, port: sshPort, listening: true, problem: '', userKeys: 1 });
    expect(on.json().hostKey.algorithm).toBe('ssh-ed25519');
    expect(on.json().knownHostsLine).toMatch(new RegExp(`^\\[127\\.0\\.0\\.1\\]:${sshPort} ssh-ed25519 `));
    fs.writeFileSync(knownHosts, `${on.json().knownHostsLine}\n`);
    const sealed = await t.app.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'ssh.hostKey')
      .executeTakeFirst();
    expect(sealed?.value).not.toMatch(/PRIVATE KEY/);
  });

  it('answers jfrog-authenticate with a token of the key’s user that the REST API takes', async () => {
    const run = await ssh(path.join(dir, 'ed'), ['jfrog-authenticate']);
    expect(run.stderr).not.toMatch(/WARNING|Host key verification failed/);
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout);
    expect(answer.href).toBe(`http://127.0.0.1:${httpPort}/artifactory/`);
    expect(answer.expires_in).toBe(SSH_TOKEN_SECONDS);
    expect(answer.headers.Authorization).toMatch(/^Bearer ey/);

    const me = await fetch(`${answer.href}api/security/apiKey`, { headers: answer.headers });
    expect(me.status).toBe(200);
    const tokens = await fetch(`http://127.0.0.1:${httpPort}/access/api/v1/tokens`, { headers: answer.headers });
    const listed = (await tokens.json()) as { tokens: { description: string; subject: string }[] };
    expect(listed.tokens.map((x) => [x.description, x.subject.split('/').pop()])).toEqual([['SSH sign-in', 'dev']]);
    const key = (await t.app.inject({ method: 'GET', url: MINE, headers: dev })).json()[0];
    expect(key.lastUsed).not.toBeNull();
    const audit = await t.app.db
      .selectFrom('audit_events')
      .select(['actor', 'action'])
      .where('action', '=', 'ssh sign-in')
      .execute();
    expect(audit).toEqual([{ actor: 'dev', action: 'ssh sign-in' }]);
  });

  it('refuses unknown commands, shells, unregistered and removed keys', async () => {
    const unknown = await ssh(path.join(dir, 'ed'), ['rm', '-rf', '/']);
    expect(unknown.code).toBe(127);
    expect(unknown.stderr).toContain(formatMessage(SSH_MESSAGES.unknownCommand, { command: 'rm' }));
    const shell = await ssh(path.join(dir, 'ed'), ['-T']);
    expect(shell.stderr).toContain('Hi dev! You are signed in to Arca.');

    const stranger = makeKey(dir, 'stranger', 'ecdsa');
    const refused = await ssh(stranger.file, ['jfrog-authenticate']);
    expect(refused.code).toBe(255);
    expect(refused.stderr).toContain('Permission denied (publickey)');

    // the administrator removes dev's key: dev signs in no more
    const all = (
      await t.app.inject({ method: 'GET', url: '/ui/api/v1/ui/security/sshKeys', headers: ADMIN_BASIC })
    ).json();
    expect(all.map((k: { user: string; title: string }) => `${k.user}/${k.title}`)).toEqual(['dev/Laptop']);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/ui/api/v1/ui/security/sshKeys/${all[0].id}`,
      headers: { ...ADMIN_BASIC, ...XHR },
    });
    expect(removed.statusCode).toBe(204);
    expect((await ssh(path.join(dir, 'ed'), ['jfrog-authenticate'])).stderr).toContain('Permission denied (publickey)');
  });

  it('answers with a new host key when one is imported, and stops listening when turned off', async () => {
    const ed = makeKey(dir, 'again', 'ed25519');
    await t.app.inject({
      method: 'POST',
      url: MINE,
      headers: dev,
      payload: { title: 'Desk', publicKey: ed.publicKey },
    });
    const host = makeKey(dir, 'host', 'rsa', 3072);
    const bad = await t.app.inject({
      method: 'POST',
      url: `${SERVER}/hostKey`,
      headers: { ...ADMIN_BASIC, ...XHR },
      payload: { privateKey: host.publicKey },
    });
    expect(messages(bad)[0]).toBe(SSH_MESSAGES.hostKeyInvalid);
    const imported = await t.app.inject({
      method: 'POST',
      url: `${SERVER}/hostKey`,
      headers: { ...ADMIN_BASIC, ...XHR },
      payload: { privateKey: fs.readFileSync(host.file, 'utf8') },
    });
    expect(imported.statusCode).toBe(200);
    expect(imported.json().hostKey).toMatchObject({ algorithm: 'ssh-rsa', fingerprint: host.fingerprint });
    // the old line no longer matches: OpenSSH refuses, as it must when a host key changes
    expect((await ssh(ed.file, ['jfrog-authenticate'])).stderr).toMatch(
      /Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED/,
    );
    fs.writeFileSync(knownHosts, `${imported.json().knownHostsLine}\n`);
    expect((await ssh(ed.file, ['jfrog-authenticate'])).code).toBe(0);

    const off = await t.app.inject({
      method: 'PUT',
      url: SERVER,
      headers: { ...ADMIN_BASIC, ...XHR },
      payload: { enabled: false, port: sshPort },
    });
    expect(off.json()).toMatchObject({ enabled: false, listening: false });
    expect((await ssh(ed.file, ['jfrog-authenticate'])).stderr).toMatch(/Connection refused/);

    // a user's keys go with the user
    await t.app.inject({ method: 'DELETE', url: '/artifactory/api/security/users/dev', headers: ADMIN_BASIC });
    expect(await t.app.db.selectFrom('ssh_keys').select('id').execute()).toEqual([]);
  });
});
