import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './harness';
import { clientHome, formatRepositories, run, restCall } from './clients/clients';

/**
 * Cargo's sparse registries proven with the installed cargo: `cargo publish` of a crate that
 * depends on one from "crates.io" (a second Arca, behind a remote repository), `cargo build` of a
 * program using both through a virtual repository, `cargo yank`, `cargo search`, and what
 * cargo prints when the registry refuses.
 */
let upstream: RunningServer;
let arca: RunningServer;
const { home, env } = clientHome();
const DEV = { user: 'dev', password: 'Dev-password-1' };
const READER = { user: 'reader', password: 'Reader-password-1' };
/** rustup's cargo (Debian's predates sparse indexes), with rustup's own home kept when the client's HOME changes. */
const RUSTUP_HOME = process.env.RUSTUP_HOME ?? path.join(os.homedir(), '.rustup');
const CARGO =
  [process.env.CARGO_HOME, path.join(os.homedir(), '.cargo')]
    .filter((dir): dir is string => !!dir)
    .map((dir) => path.join(dir, 'bin/cargo'))
    .find((file) => fs.existsSync(file)) ?? 'cargo';
const tokens: Record<string, string> = {};

const call = (
  server: RunningServer,
  method: string,
  url: string,
  body?: unknown,
  who = { user: 'admin', password: ADMIN_PASSWORD },
) => restCall(server.url, who, method, url, body);

async function tokenFor(server: RunningServer, who: { user: string; password: string }): Promise<string> {
  const answer = (await (
    await call(server, 'POST', '/access/api/v1/tokens', { description: 'cargo' }, who)
  ).json()) as {
    access_token: string;
  };
  return answer.access_token;
}

/** Cargo with its own home: registries `arca` (the virtual repository) and `up` (the upstream's), each token as cargo sends it. */
function cargo(args: string[], cwd: string, token = tokens.dev!) {
  const cargoHome = path.join(home, 'cargo-home');
  fs.mkdirSync(cargoHome, { recursive: true });
  fs.writeFileSync(
    path.join(cargoHome, 'config.toml'),
    [
      '[registries.arca]',
      `index = "sparse+${arca.url}/artifactory/api/cargo/cargo/index/"`,
      '[registries.up]',
      `index = "sparse+${upstream.url}/artifactory/api/cargo/cargo-public/index/"`,
      '[registry]',
      'global-credential-providers = ["cargo:token"]',
      '[net]',
      'retry = 0',
      '',
    ].join('\n'),
  );
  return run(CARGO, args, {
    cwd,
    env: {
      ...env,
      CARGO_HOME: cargoHome,
      RUSTUP_HOME,
      CARGO_TARGET_DIR: path.join(home, 'target'),
      // Artifactory's form: the access token with its scheme
      CARGO_REGISTRIES_ARCA_TOKEN: `Bearer ${token}`,
      // cargo's own form, the bare token: Arca reads it as a bearer token
      CARGO_REGISTRIES_UP_TOKEN: tokens.upstream ?? '',
      CARGO_TERM_COLOR: 'never',
      CARGO_HTTP_TIMEOUT: '60',
    },
  });
}

/** A library or binary crate in a fresh directory. */
function crate(name: string, version: string, body: string, dependencies = '', bin = false): string {
  const dir = fs.mkdtempSync(path.join(home, `${name}-`));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(
    path.join(dir, 'Cargo.toml'),
    `[package]\nname = "${name}"\nversion = "${version}"\nedition = "2021"\ndescription = "${name} for tests"\nlicense = "MIT"\nkeywords = ["arca"]\n\n[dependencies]\n${dependencies}`,
  );
  fs.writeFileSync(path.join(dir, 'README.md'), `# ${name}\n`);
  fs.writeFileSync(path.join(dir, 'src', bin ? 'main.rs' : 'lib.rs'), body);
  return dir;
}

beforeAll(async () => {
  upstream = await startServer();
  arca = await startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  await call(upstream, 'PUT', '/artifactory/api/repositories/cargo-public', { rclass: 'local', packageType: 'cargo' });
  await formatRepositories(
    arca,
    { user: 'admin', password: ADMIN_PASSWORD },
    {
      packageType: 'cargo',
      upstream: `${upstream.url}/artifactory/api/cargo/cargo-public/index/`,
      upstreamAs: { user: 'admin', password: ADMIN_PASSWORD },
      users: [
        { ...DEV, actions: ['read', 'write', 'delete'] },
        { ...READER, actions: ['read'] },
      ],
    },
  );
  tokens.upstream = await tokenFor(upstream, { user: 'admin', password: ADMIN_PASSWORD });
  tokens.dev = await tokenFor(arca, DEV);
  tokens.reader = await tokenFor(arca, READER);
  // "crates.io": a crate published there with cargo
  const dep = crate('up_dep', '0.3.0', 'pub fn hello() -> &\'static str { "hello from up_dep 0.3.0" }\n');
  await cargo(['publish', '--registry', 'up', '--allow-dirty'], dep);
});

afterAll(async () => {
  await arca?.stop();
  await upstream?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('cargo against Arca', () => {
  it('publishes a crate depending on an upstream one, and builds a program from both through the virtual repository', async () => {
    const lib = crate(
      'acme-lib',
      '0.1.0',
      'pub fn hello() -> String { format!("acme-lib says: {}", up_dep::hello()) }\n',
      'up_dep = { version = "0.3", registry = "arca" }\n',
    );
    const published = await cargo(['publish', '--registry', 'arca', '--allow-dirty'], lib);
    expect(published).toContain('Uploaded acme-lib v0.1.0');
    const app = crate(
      'acme-app',
      '1.0.0',
      'fn main() { println!("{}", acme_lib::hello()); }\n',
      'acme-lib = { version = "0.1", registry = "arca" }\n',
      true,
    );
    await cargo(['build'], app);
    const binary = path.join(home, 'target', 'debug', 'acme-app');
    expect((await run(binary, [], { cwd: app, env })).trim()).toBe('acme-lib says: hello from up_dep 0.3.0');
    // the upstream's crate was fetched through the remote and is cached there
    const cached = await call(arca, 'GET', '/artifactory/api/storage/cargo-remote/crates/up_dep/up_dep-0.3.0.crate');
    expect(cached.status).toBe(200);
    // cargo search reads the registry's web API
    expect(await cargo(['search', 'acme', '--registry', 'arca'], app)).toContain('acme-lib = "0.1.0"');
  });

  it('refuses a version published again, and a crate whose name differs only by case or dash', async () => {
    const publish = (dir: string) => cargo(['publish', '--registry', 'arca', '--allow-dirty', '--no-verify'], dir);
    await publish(crate('twice-lib', '0.1.0', 'pub fn first() {}\n'));
    await expect(publish(crate('twice-lib', '0.1.0', 'pub fn changed() {}\n'))).rejects.toThrow(
      /crate twice-lib@0.1.0 already exists on `arca` index/,
    );
    await expect(publish(crate('Twice_Lib', '0.2.0', 'pub fn twin() {}\n'))).rejects.toThrow(
      /collides with the crate `twice-lib`/,
    );
  });

  it('yanks a version so that new resolutions skip it, and brings it back', async () => {
    const dir = crate('yank-lib', '0.1.0', 'pub fn x() {}\n');
    await cargo(['publish', '--registry', 'arca', '--allow-dirty', '--no-verify'], dir);
    await cargo(['yank', '--version', '0.1.0', '--registry', 'arca', 'yank-lib'], dir);
    const fresh = crate(
      'fresh-app',
      '1.0.0',
      'fn main() {}\n',
      'yank-lib = { version = "0.1", registry = "arca" }\n',
      true,
    );
    await expect(cargo(['generate-lockfile'], fresh)).rejects.toThrow(/yank-lib/);
    await cargo(['yank', '--undo', '--version', '0.1.0', '--registry', 'arca', 'yank-lib'], dir);
    await cargo(['generate-lockfile'], fresh);
    expect(fs.readFileSync(path.join(fresh, 'Cargo.lock'), 'utf8')).toContain('name = "yank-lib"\nversion = "0.1.0"');
  });

  it('lets a reader download but not publish, and turns away a caller without a token', async () => {
    await cargo(
      ['publish', '--registry', 'arca', '--allow-dirty', '--no-verify'],
      crate('read-lib', '0.1.0', 'pub fn x() {}\n'),
    );
    const mine = crate('reader-crate', '0.1.0', 'pub fn x() {}\n');
    await expect(
      cargo(['publish', '--registry', 'arca', '--allow-dirty', '--no-verify'], mine, tokens.reader),
    ).rejects.toThrow(/403|permission/);
    const index = await fetch(`${arca.url}/artifactory/api/cargo/cargo/index/re/ad/read-lib`, {
      headers: { Authorization: tokens.reader! },
    });
    expect(index.status).toBe(200);
    expect((await index.text()).split('\n')[0]).toContain('"vers":"0.1.0"');
    const anonymous = await fetch(`${arca.url}/artifactory/api/cargo/cargo/index/config.json`);
    expect(anonymous.status).toBe(401);
    const crateFile = await fetch(`${arca.url}/artifactory/api/cargo/cargo/v1/crates/read-lib/0.1.0/download`);
    expect(crateFile.status).toBe(401);
    const config = await fetch(`${arca.url}/artifactory/api/cargo/cargo/index/config.json`, {
      headers: { Authorization: `Bearer ${tokens.reader}` },
    });
    expect(await config.json()).toEqual({
      dl: `${arca.url}/artifactory/api/cargo/cargo/v1/crates`,
      api: `${arca.url}/artifactory/api/cargo/cargo`,
      'auth-required': true,
    });
  });
});
