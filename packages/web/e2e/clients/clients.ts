import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..', '..', '..');

/** A package client's own binary from the project's dependencies (pnpm, yarn), or from the PATH. */
export const bin = (name: string) => {
  const local = path.join(ROOT, 'node_modules/.bin', name);
  return fs.existsSync(local) ? local : name;
};

/**
 * An environment for a package client that sees nothing of the test runner's own npm: no npm_*
 * variables (npm test sets many), a home of its own, a cache of its own.
 */
export function clientHome(): { home: string; env: NodeJS.ProcessEnv } {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-client-'));
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  Object.assign(env, {
    HOME: home,
    npm_config_cache: path.join(home, 'npm-cache'),
    npm_config_userconfig: path.join(home, '.npmrc'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    YARN_CACHE_FOLDER: path.join(home, 'yarn-cache'),
  });
  return { home, env };
}

/** Runs a client and answers its output; throws with all of it when the client fails. */
export async function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<string> {
  try {
    const { stdout, stderr } = await exec(command, args, { ...options, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
    return `${stdout}${stderr}`;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${command} ${args.join(' ')} failed: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`,
    );
  }
}

/**
 * Runs an interactive client in a pseudo-terminal (util-linux `script`), answering each prompt
 * as it appears — `npm login` reads its password from a terminal only.
 */
export function runInTerminal(
  commandLine: string,
  answers: [prompt: string, answer: string][],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', commandLine, '/dev/null'], { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let next = 0;
    let searchFrom = 0;
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const onData = (data: Buffer) => {
      output += data.toString();
      const pending = answers[next];
      const at = pending ? output.indexOf(pending[0], searchFrom) : -1;
      if (pending && at >= 0) {
        next += 1;
        searchFrom = at + pending[0].length;
        child.stdin.write(`${pending[1]}\r`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${commandLine} exited with ${code}:\n${output}`));
    });
  });
}

/** A REST call to a server as `user` (JSON in and out); throws with the answer when it is refused. */
export async function restCall(
  serverUrl: string,
  credentials: { user: string; password: string },
  method: string,
  url: string,
  body?: unknown,
): Promise<Response> {
  const res = await fetch(`${serverUrl}${url}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res;
}

/** Who a client test signs in as: a name and a password. */
export interface Credentials {
  user: string;
  password: string;
}

/**
 * The repositories a format's client test works with on `server`: `{type}-local`,
 * `{type}-remote` proxying `upstream` (signed in as `upstreamAs`) and the virtual `{type}` over
 * both, deploying to the local one; and each of `users` created with its actions on all three.
 */
export async function formatRepositories(
  server: { url: string },
  admin: Credentials,
  options: {
    packageType: string;
    upstream: string;
    upstreamAs: Credentials;
    users: (Credentials & { actions: string[] })[];
  },
): Promise<void> {
  const { packageType: type } = options;
  const call = (method: string, url: string, body: unknown) => restCall(server.url, admin, method, url, body);
  await call('PUT', `/artifactory/api/repositories/${type}-local`, { rclass: 'local', packageType: type });
  await call('PUT', `/artifactory/api/repositories/${type}-remote`, {
    rclass: 'remote',
    packageType: type,
    url: options.upstream,
    username: options.upstreamAs.user,
    password: options.upstreamAs.password,
  });
  await call('PUT', `/artifactory/api/repositories/${type}`, {
    rclass: 'virtual',
    packageType: type,
    repositories: [`${type}-local`, `${type}-remote`],
    defaultDeploymentRepo: `${type}-local`,
  });
  for (const who of options.users) {
    await call('PUT', `/artifactory/api/security/users/${who.user}`, {
      email: `${who.user}@example.com`,
      password: who.password,
    });
  }
  await call('PUT', `/artifactory/api/v2/security/permissions/${type}`, {
    repo: {
      repositories: [`${type}-local`, `${type}-remote`, type],
      actions: { users: Object.fromEntries(options.users.map((u) => [u.user, u.actions])) },
    },
  });
}

/** A console call as a script makes it (JSON): basic credentials and the console's CSRF header. */
export function consoleFetch(
  serverUrl: string,
  credentials: { user: string; password: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  return fetch(`${serverUrl}/ui/api/v1/${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`,
      'content-type': 'application/json',
      'x-requested-with': 'XMLHttpRequest',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
