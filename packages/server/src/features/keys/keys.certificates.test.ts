import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFICATE_MESSAGES } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  createRepo,
  login,
  messages,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

/** A test CA, a server certificate for 127.0.0.1 and a client certificate, made with openssl. */
function makeCertificates(dir: string) {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const file = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '2',
    '-subj',
    '/CN=Test CA',
  );
  for (const [name, subject, extension] of [
    ['server', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1'],
    ['client', '/CN=arca-client', 'extendedKeyUsage=clientAuth'],
  ] as const) {
    run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    fs.writeFileSync(path.join(dir, `${name}.ext`), `${extension}\n`);
    run(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    );
  }
  return {
    ca: file('ca.crt'),
    server: { cert: file('server.crt'), key: file('server.key') },
    client: { cert: file('client.crt'), key: file('client.key') },
  };
}

describe.each(ENGINES)('TLS certificates on %s', (engine) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let upstream: https.Server;
  let url: string;
  let certs: ReturnType<typeof makeCertificates>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-certs-'));
  const call = (method: 'GET' | 'POST' | 'DELETE', suffix: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/ui/api/v1/ui/security/certificates${suffix}`,
      headers: admin,
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    certs = makeCertificates(dir);
    // an upstream that talks only to clients with a certificate its CA signed
    upstream = https.createServer(
      { ...certs.server, ca: certs.ca, requestCert: true, rejectUnauthorized: true },
      (request, response) => {
        if (request.url === '/files/lib.txt')
          response.end(`hello ${(request.socket as TLSSocket).getPeerCertificate().subject.CN}`);
        else response.writeHead(404).end();
      },
    );
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(upstream.address() as AddressInfo).port}/files/`;
    t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    admin = { ...XHR, cookie: (await login(t.app)).cookie };
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reaches an upstream that asks for a client certificate, once its authority is trusted and the certificate added', async () => {
    await createRepo(t.app, 'mtls-remote', { rclass: 'remote', url });
    const get = (file: string) => t.app.inject({ url: `/artifactory/mtls-remote/${file}`, headers: ADMIN_BASIC });
    // the upstream's authority is unknown: nothing is fetched, and the client hears why
    const untrusted = await get('lib.txt');
    expect(untrusted.statusCode).toBe(502);
    expect(untrusted.json().errors[0].message).toMatch(/^The remote repository 'mtls-remote' could not get an answer/);

    expect((await call('POST', '', { alias: 'internal-ca', kind: 'trusted', pem: certs.ca })).statusCode).toBe(201);
    // trusted now, but the upstream wants a client certificate
    expect((await get('lib.txt')).statusCode).toBe(502);

    const added = await call('POST', '', { alias: 'arca-client', pem: `${certs.client.cert}${certs.client.key}` });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      alias: 'arca-client',
      kind: 'client',
      subject: 'CN=arca-client',
      issuer: 'CN=Test CA',
    });
    const row = await t.app.db
      .selectFrom('certificates')
      .selectAll()
      .where('alias', '=', 'arca-client')
      .executeTakeFirstOrThrow();
    expect(row.private_key).not.toContain('PRIVATE KEY');
    const update = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/repositories/mtls-remote',
      headers: ADMIN_BASIC,
      payload: { clientTlsCertificate: 'arca-client' },
    });
    expect(update.statusCode).toBe(200);
    const fetched = await get('lib.txt');
    expect([fetched.statusCode, fetched.body]).toEqual([200, 'hello arca-client']);

    const refused = await call('DELETE', '/arca-client');
    expect([refused.statusCode, messages(refused)[0]]).toEqual([
      409,
      "The certificate 'arca-client' is presented by mtls-remote; choose another one there first.",
    ]);
    const listed = await t.app.inject({ url: '/artifactory/api/system/security/certificates', headers: ADMIN_BASIC });
    expect(listed.json().map((c: { certificateAlias: string }) => c.certificateAlias)).toEqual([
      'arca-client',
      'internal-ca',
    ]);
  });

  it('refuses a PEM that does not make a certificate of its kind, and stores nothing then', async () => {
    const refused = async (body: object) => {
      const res = await call('POST', '', body);
      expect(res.statusCode).toBe(400);
      return messages(res)[0];
    };
    expect(await refused({ alias: 'c1', pem: 'no pem here' })).toBe(CERTIFICATE_MESSAGES.noCertificate);
    expect(await refused({ alias: 'c1', pem: certs.client.cert })).toBe(CERTIFICATE_MESSAGES.noKey);
    expect(await refused({ alias: 'c1', pem: `${certs.client.cert}${certs.server.key}` })).toBe(
      CERTIFICATE_MESSAGES.keyMismatch,
    );
    expect(await refused({ alias: 'c1', kind: 'trusted', pem: `${certs.ca}${certs.server.key}` })).toBe(
      CERTIFICATE_MESSAGES.keyForTrusted,
    );
    const unknown = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/repositories/mtls-other',
      headers: ADMIN_BASIC,
      payload: { rclass: 'remote', url, clientTlsCertificate: 'c1' },
    });
    expect(messages(unknown)[0]).toBe("There is no certificate 'c1'.");
    expect(await t.app.db.selectFrom('certificates').select('alias').where('alias', '=', 'c1').execute()).toEqual([]);
    // Artifactory's call: the PEM as the body
    const rest = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/system/security/certificates/rest-client',
      headers: { ...ADMIN_BASIC, 'content-type': 'text/plain' },
      payload: `${certs.client.cert}${certs.client.key}`,
    });
    expect(rest.json()).toEqual({
      status: 200,
      message: 'The certificate was successfully installed with alias rest-client',
    });
    expect((await call('DELETE', '/rest-client')).statusCode).toBe(204);
  });
});
