import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ADMIN_PASSWORD } from '../../packages/web/e2e/harness.ts';
import { mustRun } from '../../scripts/run.ts';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const AUTH = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;

/** Builds the server (and console) when needed. */
export async function build(withConsole = false): Promise<void> {
  await mustRun(path.join(ROOT, 'node_modules/.bin/tsc'), ['-b', path.join(ROOT, 'packages/server')]);
  if (withConsole)
    await mustRun(path.join(ROOT, 'node_modules/.bin/vite'), [
      'build',
      path.join(ROOT, 'packages/web'),
      '--logLevel',
      'warn',
    ]);
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * CPU seconds (user + system) spent so far by the processes `pids` and every process under them,
 * read from `/proc` (Linux): a node's workers and helpers counted with it.
 */
export function cpuSeconds(pids: number[]): number {
  const ticksPerSecond = 100; // USER_HZ, 100 on every Linux the benchmarks run on
  const parents = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // the fields after the command's closing parenthesis: state, ppid, … utime (14th), stime (15th)
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    parents.set(Number(entry), Number(fields[1]));
    ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]));
  }
  const counted = new Set(pids);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents)
      if (!counted.has(pid) && counted.has(parent)) {
        counted.add(pid);
        grew = true;
      }
  }
  let total = 0;
  for (const pid of counted) total += ticks.get(pid) ?? 0;
  return total / ticksPerSecond;
}

/** A file of `bytes` pseudo-random bytes (not compressible), written in 8 MiB blocks. */
export function makeFile(file: string, bytes: number): void {
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(8 * 1024 * 1024);
  let seed = 0x9e3779b9;
  for (let i = 0; i < block.length; i += 4) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    block.writeUInt32LE(seed >>> 0, i);
  }
  for (let written = 0; written < bytes; written += block.length) {
    block.writeUInt32LE(written, 0);
    fs.writeSync(fd, block, 0, Math.min(block.length, bytes - written));
  }
  fs.closeSync(fd);
}

export async function createRepository(baseUrl: string, key: string): Promise<void> {
  const res = await fetch(`${baseUrl}/artifactory/api/repositories/${key}`, {
    method: 'PUT',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({ rclass: 'local', packageType: 'generic' }),
  });
  if (!res.ok) throw new Error(`create ${key}: ${res.status} ${await res.text()}`);
}

/** Deploys `paths` of a repository, each `kb` KiB of random bytes (no two alike), 16 at a time. */
export async function deployRandomFiles(baseUrl: string, repoKey: string, paths: string[], kb: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = next++; i < paths.length; i = next++) {
        const res = await fetch(`${baseUrl}/artifactory/${repoKey}/${paths[i]}`, {
          method: 'PUT',
          headers: { authorization: AUTH },
          body: randomBytes(kb * 1024),
        });
        if (res.status !== 201) throw new Error(`deploy ${paths[i]}: ${res.status}`);
      }
    }),
  );
}

/** Runs curl and returns its write-out figures. */
/** CPU seconds of this process's children that have exited and were waited for (a `curl` run with `curl()`). */
export function waitedChildrenCpuSeconds(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  // after the command's closing parenthesis: state (3rd field) … cutime (16th), cstime (17th)
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

export function curl(args: string[]): { seconds: number; bytesPerSecond: number; status: number } {
  const out = execFileSync(
    'curl',
    ['-s', '-S', '-o', '/dev/null', '-w', '%{time_total} %{speed_download} %{speed_upload} %{http_code}', ...args],
    {
      maxBuffer: 1024 * 1024,
    },
  ).toString();
  const [time, down, up, code] = out.trim().split(' ');
  return { seconds: Number(time), bytesPerSecond: Math.max(Number(down), Number(up)), status: Number(code) };
}

export function installDebianPackages(...names: string[]): void {
  const missing = names.filter((n) => {
    try {
      execFileSync('dpkg', ['-s', n], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  if (!missing.length) return;
  const sudo = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  execFileSync(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'update', '-qq'], {
    stdio: 'inherit',
  });
  execFileSync(
    sudo[0] ?? 'apt-get',
    [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'install', '-y', '-qq', ...missing],
    {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    },
  );
}

/** nginx serving `dir` on `port`, in the foreground, with a throw-away prefix. */
export async function startNginx(dir: string, port: number, work: string): Promise<ChildProcess> {
  fs.mkdirSync(path.join(work, 'logs'), { recursive: true });
  const conf = path.join(work, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `daemon off;\nworker_processes 1;\n${process.getuid?.() === 0 ? 'user root;\n' : ''}error_log ${work}/logs/error.log;\npid ${work}/nginx.pid;\nevents { worker_connections 64; }\nhttp {\n  access_log off;\n  sendfile on;\n  tcp_nopush on;\n  client_body_temp_path ${work}/body;\n  proxy_temp_path ${work}/proxy;\n  fastcgi_temp_path ${work}/fastcgi;\n  uwsgi_temp_path ${work}/uwsgi;\n  scgi_temp_path ${work}/scgi;\n  server { listen 127.0.0.1:${port}; root ${dir}; }\n}\n`,
  );
  const child = spawn('/usr/sbin/nginx', ['-c', conf, '-p', work], { stdio: 'inherit' });
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      return child;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('nginx did not start');
}

export const mb = (bytesPerSecond: number) => `${(bytesPerSecond / 1024 / 1024).toFixed(0)} MiB/s`;
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Deploys `small` files of 1 KiB (under `small/<n>/`) and `large` files of `largeMb` MiB (under
 * `large/`) of random bytes to a local repository, 16 at a time; answers their paths and sizes.
 */
export async function loadSmallAndLarge(
  baseUrl: string,
  repoKey: string,
  counts: { small: number; large: number; largeMb: number },
): Promise<{ path: string; bytes: number }[]> {
  const jobs = [
    ...Array.from({ length: counts.small }, (_, i) => ({ path: `small/${i % 100}/f${i}.bin`, bytes: 1024 })),
    ...Array.from({ length: counts.large }, (_, i) => ({
      path: `large/f${i}.bin`,
      bytes: counts.largeMb * 1024 * 1024,
    })),
  ];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = next++; i < jobs.length; i = next++) {
        const job = jobs[i]!;
        const res = await fetch(`${baseUrl}/artifactory/${repoKey}/${job.path}`, {
          method: 'PUT',
          headers: { authorization: AUTH },
          body: randomBytes(job.bytes),
        });
        if (res.status !== 201) throw new Error(`deploy ${job.path}: ${res.status}`);
      }
    }),
  );
  console.log(`  loaded ${jobs.length} artifacts in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return jobs;
}

/** A bare Fastify process (`bare-server.ts`), ready to answer at `url` (its `/ping`). */
export async function bareFastify(
  options: { profile?: string; headers?: Record<string, string>; bytes?: number; preload?: string } = {},
): Promise<{ url: string; port: number; process: ChildProcess; stop: () => void }> {
  const port = await freePort();
  const child = fork(path.join(import.meta.dirname, 'bare-server.ts'), [String(port)], {
    execArgv: ['--import', 'tsx', ...(options.preload ? ['--import', options.preload] : [])],
    cwd: ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      ...(options.profile ? { BENCH_PROFILE_FILE: options.profile } : {}),
      ...(options.headers ? { BENCH_ANSWER_HEADERS: JSON.stringify(options.headers) } : {}),
      ...(options.bytes ? { BENCH_ANSWER_BYTES: String(options.bytes) } : {}),
    },
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`bare Fastify exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/ping`, port, process: child, stop: () => child.kill('SIGTERM') };
}
