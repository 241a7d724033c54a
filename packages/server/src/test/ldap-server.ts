import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Attribute, Change, Client } from 'ldapts';
import { freePort } from './free-port.js';

/** The directory the tests sign in against. */
export const LDAP_SUFFIX = 'dc=acme,dc=test';
export const LDAP_ADMIN_DN = `cn=admin,${LDAP_SUFFIX}`;
export const LDAP_ADMIN_PASSWORD = 'directory-admin-secret';

export interface LdapServer {
  url: string;
  /** The same directory over TLS (LDAPS), with a certificate of its own. */
  ldapsUrl: string;
  /** That certificate (PEM): what a client must trust to reach `ldapsUrl` or StartTLS. */
  certificate: string;
  /** Adds an entry (as the directory's administrator). */
  add(dn: string, attributes: Record<string, string | string[]>): Promise<void>;
  /** Adds or removes values of an attribute. */
  modify(dn: string, operation: 'add' | 'delete' | 'replace', attribute: string, values: string[]): Promise<void>;
  remove(dn: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Debian's OpenLDAP server on a loopback port, with its own configuration and database in a
 * temporary directory, seeded with people (two of them below an extra organisational unit) and
 * groups (groupOfNames, with the memberOf overlay keeping the users' side):
 *
 * - uid=alice (developers), uid=bob (readers), uid=carol in ou=eng,ou=people (developers)
 */
export async function startLdapServer(): Promise<LdapServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-ldap-'));
  fs.mkdirSync(path.join(dir, 'data'));
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const ldapsUrl = `ldaps://127.0.0.1:${await freePort()}`;
  // a self-signed certificate for 127.0.0.1, made by openssl
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      path.join(dir, 'tls.key'),
      '-out',
      path.join(dir, 'tls.crt'),
    ],
    { stdio: 'ignore' },
  );
  fs.writeFileSync(
    path.join(dir, 'slapd.conf'),
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      'include /etc/ldap/schema/nis.schema',
      `pidfile ${path.join(dir, 'slapd.pid')}`,
      `TLSCertificateFile ${path.join(dir, 'tls.crt')}`,
      `TLSCertificateKeyFile ${path.join(dir, 'tls.key')}`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'moduleload memberof',
      'database mdb',
      `suffix "${LDAP_SUFFIX}"`,
      `rootdn "${LDAP_ADMIN_DN}"`,
      `rootpw ${LDAP_ADMIN_PASSWORD}`,
      `directory ${path.join(dir, 'data')}`,
      'maxsize 10485760',
      'overlay memberof',
      'memberof-refint true',
      'access to attrs=userPassword by self write by anonymous auth by * none',
      'access to * by * read',
      '',
    ].join('\n'),
  );
  const slapd: ChildProcess = spawn(
    '/usr/sbin/slapd',
    ['-f', path.join(dir, 'slapd.conf'), '-h', `${url}/ ${ldapsUrl}/`, '-d', '0'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  slapd.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ url, timeout: 5000, connectTimeout: 5000 });
  // slapd listens once its database is open
  for (let attempt = 0; ; attempt++) {
    if (slapd.exitCode !== null) throw new Error(`slapd exited: ${stderr}`);
    try {
      await client.bind(LDAP_ADMIN_DN, LDAP_ADMIN_PASSWORD);
      break;
    } catch (error) {
      if (attempt > 100) throw new Error(`slapd did not answer: ${(error as Error).message} ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const server: LdapServer = {
    url,
    ldapsUrl,
    certificate: fs.readFileSync(path.join(dir, 'tls.crt'), 'utf8'),
    add: (dn, attributes) => client.add(dn, attributes),
    modify: (dn, operation, attribute, values) =>
      client.modify(dn, new Change({ operation, modification: new Attribute({ type: attribute, values }) })),
    remove: (dn) => client.del(dn),
    stop: async () => {
      await client.unbind().catch(() => undefined);
      slapd.kill('SIGTERM');
      if (slapd.exitCode === null) await new Promise((resolve) => slapd.once('exit', resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  const person = (uid: string, name: string) => ({
    objectClass: ['inetOrgPerson'],
    uid,
    cn: name,
    sn: name.split(' ').pop()!,
    mail: `${uid}@acme.test`,
    userPassword: `${uid}-directory-pw`,
  });
  await server.add(LDAP_SUFFIX, { objectClass: ['dcObject', 'organization'], dc: 'acme', o: 'Acme' });
  for (const ou of ['people', 'groups']) {
    await server.add(`ou=${ou},${LDAP_SUFFIX}`, { objectClass: ['organizationalUnit'], ou });
  }
  await server.add(`ou=eng,ou=people,${LDAP_SUFFIX}`, { objectClass: ['organizationalUnit'], ou: 'eng' });
  await server.add(`uid=alice,ou=people,${LDAP_SUFFIX}`, person('alice', 'Alice Archer'));
  await server.add(`uid=bob,ou=people,${LDAP_SUFFIX}`, person('bob', 'Bob Baker'));
  await server.add(`uid=carol,ou=eng,ou=people,${LDAP_SUFFIX}`, person('carol', 'Carol Cooper'));
  await server.add(`cn=developers,ou=groups,${LDAP_SUFFIX}`, {
    objectClass: ['groupOfNames'],
    cn: 'developers',
    description: 'Everyone who builds',
    member: [`uid=alice,ou=people,${LDAP_SUFFIX}`, `uid=carol,ou=eng,ou=people,${LDAP_SUFFIX}`],
  });
  await server.add(`cn=readers,ou=groups,${LDAP_SUFFIX}`, {
    objectClass: ['groupOfNames'],
    cn: 'readers',
    description: 'Read only',
    member: [`uid=bob,ou=people,${LDAP_SUFFIX}`],
  });
  return server;
}
