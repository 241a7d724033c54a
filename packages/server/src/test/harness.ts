import { TRASHCAN_REPO } from '@arca/contracts';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import * as OTPAuth from 'otpauth';
import { buildApp } from '../app.js';
import type { FeatureServices } from '../features/index.js';
import { loadConfig, type Config } from '../config.js';
import { migrateToLatest, openDatabase, type DbEngine } from '../db/database.js';
import { createPostgresDatabase } from './postgres.js';

export const ADMIN_PASSWORD = 'Adm1n-test-password';

/** The engines the integration suites run on: SQLite always, PostgreSQL when configured. */
export const ENGINES: DbEngine[] = process.env.ARCA_TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export { createPostgresDatabase };

export interface TestApp {
  app: FastifyInstance;
  /** What the features made at registration: their indexers, senders and makers to wait on. */
  services: FeatureServices;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A SQLite database file migrated to the latest schema, made once per test process and copied
 * into each app's data directory instead of replaying every migration.
 */
let sqliteTemplate: Promise<string> | undefined;
function migratedSqliteFile(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-template-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const { db } = openDatabase({ dataDir: dir });
    try {
      await migrateToLatest(db);
    } finally {
      // closing the last connection writes the log back into the file: one file to copy
      await db.destroy();
    }
    return path.join(dir, 'arca.db');
  })();
  return sqliteTemplate;
}

/** The real app on a temporary data directory and a fresh database (of the latest schema) of the given engine. */
export async function startTestApp(engine: DbEngine, env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-test-'));
  const pgDb = engine === 'postgres' ? await createPostgresDatabase({ migrated: true }) : undefined;
  if (engine === 'sqlite' && !env.ARCA_DATABASE_URL)
    fs.copyFileSync(await migratedSqliteFile(), path.join(dataDir, 'arca.db'));
  const config = loadConfig({
    ARCA_DATA_DIR: dataDir,
    ARCA_PORT: '0',
    ARCA_ADMIN_PASSWORD: ADMIN_PASSWORD,
    ARCA_LOG_LEVEL: 'warn',
    ARCA_LOG_STDOUT: 'false',
    ARCA_WEB_DIR: path.join(dataDir, 'no-web'),
    // the lowest scrypt cost: tests sign in thousands of times (passwords.test.ts proves the default)
    ARCA_PASSWORD_HASH_COST: '1024',
    ...(pgDb ? { ARCA_DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  const { app, services } = await buildApp(config);
  await app.ready();
  return {
    app,
    services,
    config,
    dataDir,
    close: async () => {
      await app.close();
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The app listening on a loopback port of its own, as another deployment reaches it; it may reach
 * loopback addresses itself (the other deployments of a test).
 */
export async function startListeningApp(
  engine: DbEngine,
  env: Record<string, string> = {},
): Promise<TestApp & { url: string; port: number }> {
  const t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', ...env });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (t.app.server.address() as AddressInfo).port;
  return { ...t, url: `http://127.0.0.1:${port}`, port };
}

export const XHR = { 'x-requested-with': 'XMLHttpRequest' };

/** Logs in through the console call and returns the session cookie header. */
export async function login(app: FastifyInstance, user = 'admin', password = ADMIN_PASSWORD, rememberMe = false) {
  const res = await app.inject({
    method: 'POST',
    url: `/ui/api/v1/ui/auth/login${rememberMe ? '?_spring_security_remember_me=true' : ''}`,
    headers: XHR,
    payload: { user, password, type: 'login' },
  });
  return { res, cookie: sessionCookie(res) };
}

export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'arca_session');
  return cookie ? `arca_session=${cookie.value}` : '';
}

/** The messages of an `errors` body. */
export function messages(res: LightMyRequestResponse): string[] {
  return (res.json() as { errors: { message: string }[] }).errors.map((e) => e.message);
}

/** Basic credentials of the test admin, as package clients send them. */
export const ADMIN_BASIC: { authorization: string; [header: string]: string } = {
  authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`,
};

/** Creates a repository through the Artifactory-compatible REST call. */
export async function createRepo(app: FastifyInstance, key: string, config: Record<string, unknown>): Promise<void> {
  const res = await app.inject({
    method: 'PUT',
    url: `/artifactory/api/repositories/${key}`,
    headers: ADMIN_BASIC,
    payload: config,
  });
  if (res.statusCode !== 200) throw new Error(`creating ${key} failed: ${res.body}`);
}

/** Deploys bytes with curl's shape of request. */
export function put(app: FastifyInstance, url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'PUT',
    url,
    headers: { ...ADMIN_BASIC, 'content-type': 'application/octet-stream', ...headers },
    payload: body,
  });
}

/** Rows of a table, for asserting that nothing was written. */
export async function countRows(
  app: FastifyInstance,
  table:
    | 'items'
    | 'binaries'
    | 'events'
    | 'repositories'
    | 'item_properties'
    | 'users'
    | 'groups'
    | 'group_members'
    | 'permission_targets'
    | 'permission_grants'
    | 'access_tokens'
    | 'audit_events'
    | 'webhooks'
    | 'webhook_deliveries'
    | 'webhook_attempts',
): Promise<number> {
  const row = await app.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Files stored in the binary store (temporary files included). */
export function storedFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'filestore');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) =>
    fs.statSync(path.join(root, f)).isFile(),
  );
}

/** Changes some security settings as the administrator (the others stay as they are). */
export async function changeSecuritySettings(app: FastifyInstance, changes: Record<string, unknown>) {
  const url = '/ui/api/v1/ui/security/settings';
  const current = (await app.inject({ method: 'GET', url, headers: ADMIN_BASIC })).json() as object;
  return app.inject({ method: 'PUT', url, headers: { ...ADMIN_BASIC, ...XHR }, payload: { ...current, ...changes } });
}

/** HTTP basic credentials as a header. */
export const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

/** Creates a user through the REST call. */
export async function createUser(app: FastifyInstance, name: string, extra: Record<string, unknown> = {}) {
  const res = await app.inject({
    method: 'PUT',
    url: `/artifactory/api/security/users/${name}`,
    headers: ADMIN_BASIC,
    payload: { email: `${name}@example.com`, password: `${name}-Passw0rd`, ...extra },
  });
  if (res.statusCode !== 201) throw new Error(`creating user ${name} failed: ${res.body}`);
  return basic(name, `${name}-Passw0rd`);
}

/** The TOTP code of a secret now, or `offset` 30-second steps away. */
export const totpCode = (secret: string, offset = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offset * 30_000,
  });

/** The half-finished two-factor sign-in cookie of a login answer. */
export const mfaCookie = (res: { cookies: { name: string; value: string }[] }) =>
  `arca_mfa=${res.cookies.find((c) => c.name === 'arca_mfa')!.value}`;

/** Signs a user in and enrols a TOTP second factor; answers its secret and the session cookie. */
export async function enrolTotp(app: FastifyInstance, name: string, password: string) {
  const { cookie } = await login(app, name, password);
  const enrollment = await app.inject({ url: '/ui/api/v1/auth/mfa/enroll/', headers: { cookie } });
  const { secret } = enrollment.json() as { secret: string };
  const confirmed = await app.inject({
    method: 'POST',
    url: '/ui/api/v1/auth/mfa/enroll/',
    headers: { ...XHR, cookie },
    payload: { otp: totpCode(secret) },
  });
  if (confirmed.statusCode !== 200) throw new Error(`enrolling ${name} failed: ${confirmed.body}`);
  return { secret, cookie };
}

export { linkIn, startMailServer } from './mail.js';
export { zipEntries } from './zip.js';

/** The paths of every file in the repositories (the trash can left out), sorted. */
export async function repositoryFiles(app: FastifyInstance): Promise<string[]> {
  const rows = await app.db
    .selectFrom('items')
    .select('path')
    .where('folder', '=', 0)
    .where('repo_key', '!=', TRASHCAN_REPO)
    .execute();
  return rows.map((r) => r.path).sort();
}
