/**
 * Authenticated clients: downloads of a small file, anonymously and with each kind of client
 * credential (basic password, bearer access token, API key header), by a user with a read
 * permission. Prints requests per second of each and the ratio to anonymous (target ≈ 1).
 */
import { AUTH, build, createRepository } from '../lib/bench.ts';
import { startServer } from '../../packages/web/e2e/harness.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONCURRENCY = 16;
const json = { authorization: AUTH, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };

async function call(url: string, method: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res;
}

await build();
const server = await startServer({ ARCA_LOG_STDOUT: 'false', ARCA_LOG_LEVEL: 'warn' });
try {
  const base = server.url;
  await createRepository(base, 'libs-local');
  const deployed = await fetch(`${base}/artifactory/libs-local/small.txt`, {
    method: 'PUT',
    headers: { authorization: AUTH },
    body: 'x'.repeat(1024),
  });
  if (deployed.status !== 201) throw new Error(`deploy: ${deployed.status}`);
  await call(`${base}/artifactory/api/security/users/ci`, 'PUT', json, {
    email: 'ci@example.com',
    password: 'Ci-password-1',
  });
  await call(`${base}/artifactory/api/v2/security/permissions/ci-read`, 'PUT', json, {
    repo: { repositories: ['libs-local'], actions: { users: { ci: ['read'] } } },
  });
  const settings = await (await call(`${base}/ui/api/v1/ui/security/settings`, 'GET', json)).json();
  await call(`${base}/ui/api/v1/ui/security/settings`, 'PUT', json, { ...settings, anonymousAccess: true });
  const ci = {
    authorization: `Basic ${Buffer.from('ci:Ci-password-1').toString('base64')}`,
    'content-type': 'application/json',
  };
  const token = (
    (await (await call(`${base}/access/api/v1/tokens`, 'POST', ci, { description: 'bench' })).json()) as {
      access_token: string;
    }
  ).access_token;
  const apiKey = (
    (await (await call(`${base}/artifactory/api/security/apiKey`, 'POST', ci)).json()) as { apiKey: string }
  ).apiKey;

  const modes: [string, Record<string, string>][] = [
    ['anonymous', {}],
    ['basic password', { authorization: ci.authorization }],
    ['bearer token', { authorization: `Bearer ${token}` }],
    ['X-JFrog-Art-Api', { 'x-jfrog-art-api': apiKey }],
  ];
  const url = `${base}/artifactory/libs-local/small.txt`;
  async function rate(headers: Record<string, string>): Promise<number> {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          next += 1;
          const res = await fetch(url, { headers });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`status ${res.status}`);
        }
      }),
    );
    return REQUESTS / ((performance.now() - started) / 1000);
  }
  // warm up every path once, then measure each mode twice in alternation and keep the better run
  for (const [, headers] of modes) await rate(headers);
  const best = new Map<string, number>();
  for (let round = 0; round < 2; round++) {
    for (const [name, headers] of modes) best.set(name, Math.max(best.get(name) ?? 0, await rate(headers)));
  }
  const anonymous = best.get('anonymous')!;
  console.log(`auth: ${REQUESTS} downloads of 1 KiB, ${CONCURRENCY} at a time, best of 2 rounds`);
  for (const [name] of modes) {
    const value = best.get(name)!;
    console.log(
      `  ${name.padEnd(16)} ${value.toFixed(0).padStart(6)} req/s  ratio to anonymous ${(value / anonymous).toFixed(2)}`,
    );
  }
} finally {
  await server.stop();
}
