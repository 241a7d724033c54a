import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './harness';
import { clientHome, run, restCall } from './clients/clients';

/**
 * The Python index proven with the real clients: twine (Debian's) uploads, pip installs into a
 * fresh virtual environment. A second Arca plays PyPI behind a remote repository; a virtual
 * repository combines it with the local one the team uploads to.
 */
let upstream: RunningServer;
let arca: RunningServer;
const { home, env } = clientHome();
const dists = path.join(home, 'dist');
const venv = path.join(home, 'venv');

const call = (server: RunningServer, method: string, url: string, body?: unknown) =>
  restCall(server.url, { user: 'admin', password: ADMIN_PASSWORD }, method, url, body);

/** A wheel and an sdist of a tiny project, built with Python's standard library. */
function build(name: string, version: string, ...requires: string[]): string[] {
  const out = fs.mkdtempSync(path.join(dists, `${name}-`));
  const names = execFileSync(
    'python3',
    [path.join(import.meta.dirname, 'clients/python-dists.py'), out, name, version, ...requires],
    {
      env,
    },
  )
    .toString()
    .trim()
    .split('\n');
  return names.map((n) => path.join(out, n));
}

const twine = (server: RunningServer, repo: string, user: string, password: string, files: string[]) =>
  run(
    'twine',
    [
      'upload',
      '--non-interactive',
      '--disable-progress-bar',
      '--repository-url',
      `${server.url}/artifactory/api/pypi/${repo}`,
      '-u',
      user,
      '-p',
      password,
      ...files,
    ],
    {
      cwd: home,
      env,
    },
  );

const index = () => `${arca.url.replace('http://', 'http://dev:Dev-password-1@')}/artifactory/api/pypi/pypi/simple`;
const pip = (...args: string[]) =>
  run(path.join(venv, 'bin/pip'), [...args, '--index-url', index(), '--no-cache-dir', '--disable-pip-version-check'], {
    cwd: home,
    env,
  });
const python = (code: string) => run(path.join(venv, 'bin/python'), ['-c', code], { cwd: home, env });

beforeAll(async () => {
  fs.mkdirSync(dists);
  upstream = await startServer();
  arca = await startServer({ ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  await call(upstream, 'PUT', '/artifactory/api/repositories/public', { rclass: 'local', packageType: 'pypi' });
  await call(arca, 'PUT', '/artifactory/api/repositories/pypi-local', { rclass: 'local', packageType: 'pypi' });
  await call(arca, 'PUT', '/artifactory/api/repositories/pypi-remote', {
    rclass: 'remote',
    packageType: 'pypi',
    url: `${upstream.url}/artifactory/api/pypi/public`,
    username: 'admin',
    password: ADMIN_PASSWORD,
  });
  await call(arca, 'PUT', '/artifactory/api/repositories/pypi', {
    rclass: 'virtual',
    packageType: 'pypi',
    repositories: ['pypi-local', 'pypi-remote'],
    defaultDeploymentRepo: 'pypi-local',
  });
  await call(arca, 'PUT', '/artifactory/api/security/users/dev', {
    email: 'dev@example.com',
    password: 'Dev-password-1',
  });
  await call(arca, 'PUT', '/artifactory/api/v2/security/permissions/dev', {
    repo: { repositories: ['pypi-local', 'pypi-remote', 'pypi'], actions: { users: { dev: ['read', 'write'] } } },
  });
  // "PyPI": a dependency published there with twine
  await twine(upstream, 'public', 'admin', ADMIN_PASSWORD, build('tiny-dep', '0.3.0'));
  await run('python3', ['-m', 'venv', venv], { cwd: home, env });
});

afterAll(async () => {
  await arca?.stop();
  await upstream?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('twine and pip against Arca', () => {
  it('uploads a wheel and an sdist with twine, and refuses the same file again', async () => {
    const files = build('My_Pkg', '1.0.0', 'tiny-dep>=0.3');
    const output = await twine(arca, 'pypi', 'dev', 'Dev-password-1', files);
    expect(output).toContain('My_Pkg-1.0.0.tar.gz');
    await expect(twine(arca, 'pypi', 'dev', 'Dev-password-1', files)).rejects.toThrow(/File already exists/);
  });

  it('installs through the virtual repository with pip, its dependency from the upstream, by any spelling of the name', async () => {
    await pip('install', 'my-pkg==1.0.0');
    expect((await python('import my_pkg, tiny_dep; print(my_pkg.hello(), tiny_dep.hello())')).trim()).toBe(
      'hello from My_Pkg 1.0.0 hello from tiny-dep 0.3.0',
    );
    // a second version, found as MY.PKG
    await twine(arca, 'pypi', 'dev', 'Dev-password-1', build('My_Pkg', '1.1.0', 'tiny-dep>=0.3'));
    await pip('install', '--upgrade', 'MY.PKG');
    expect((await python('import my_pkg; print(my_pkg.hello())')).trim()).toBe('hello from My_Pkg 1.1.0');
    // pip download fetches the wheel, verified against the index's sha256
    const downloads = path.join(home, 'downloads');
    await pip('download', '--no-deps', '-d', downloads, 'my_pkg==1.0.0');
    expect(fs.readdirSync(downloads)).toEqual(['My_Pkg-1.0.0-py3-none-any.whl']);
  });
});
