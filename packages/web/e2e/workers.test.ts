import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startServer, type RunningServer } from './harness';

/** Two server processes on one port (`ARCA_WORKERS=2`), as a deployment on a two-core machine runs. */
let server: RunningServer;
const admin = { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` };
const ann = { authorization: `Basic ${Buffer.from('ann:Ann-password-1').toString('base64')}` };

async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = admin) {
  return fetch(`${server.url}${url}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

beforeAll(async () => {
  server = await startServer({ ARCA_WORKERS: '2' });
});
afterAll(async () => {
  await server?.stop();
});

describe('several workers', () => {
  it('runs each worker as a node and shows every change on the next request of every worker', async () => {
    // both workers register as nodes
    await expect
      .poll(
        async () =>
          (
            (await (
              await call('GET', '/ui/api/v1/system/status/nodes', undefined, {
                ...admin,
                'x-requested-with': 'XMLHttpRequest',
              })
            ).json()) as {
              nodes: unknown[];
            }
          ).nodes.length,
        { timeout: 15_000 },
      )
      .toBe(2);
    expect((await call('PUT', '/artifactory/api/repositories/libs-local', { rclass: 'local' })).status).toBe(200);
    expect((await call('PUT', '/artifactory/libs-local/a.txt', 'hello')).status).toBe(201);
    await call('PUT', '/artifactory/api/security/users/ann', { email: 'ann@example.com', password: 'Ann-password-1' });
    const statuses = async () =>
      new Set(
        await Promise.all(
          Array.from(
            { length: 12 },
            async () => (await call('GET', '/artifactory/libs-local/a.txt', undefined, ann)).status,
          ),
        ),
      );
    expect(await statuses()).toEqual(new Set([403]));
    await call('PUT', '/artifactory/api/v2/security/permissions/ann', {
      repo: { repositories: ['libs-local'], actions: { users: { ann: ['read'] } } },
    });
    expect(await statuses()).toEqual(new Set([200]));
    // a password changed through one worker ends the old one on every worker (each had it cached)
    await call('POST', '/artifactory/api/security/users/ann', { password: 'Another-passw0rd-9' });
    // refused everywhere (401, then 429 once the wrong password has locked the user)
    expect([...(await statuses())].every((status) => status === 401 || status === 429)).toBe(true);
    await call('DELETE', '/artifactory/api/v2/security/permissions/ann');
  });

  it('takes deploys that arrive at both workers at once, each creating folders the other also creates', async () => {
    await call('PUT', '/artifactory/api/repositories/busy-local', { rclass: 'local' });
    const statuses = await Promise.all(
      Array.from(
        { length: 40 },
        async (_, i) => (await call('PUT', `/artifactory/busy-local/new/f${i % 5}/file-${i}.txt`, `file ${i}`)).status,
      ),
    );
    expect(statuses.filter((status) => status !== 201)).toEqual([]);
    const listed = (await (await call('GET', '/artifactory/api/storage/busy-local/new?list&deep=1')).json()) as {
      files: unknown[];
    };
    expect(listed.files).toHaveLength(40);
  });

  it('answers /metrics for every worker of the node, whichever takes the scrape', async () => {
    await call('PUT', '/artifactory/api/repositories/metrics-local', { rclass: 'local' });
    const deployedBytes = async () => {
      const text = await (await call('GET', '/metrics')).text();
      const line = text.split('\n').find((l) => l.startsWith('arca_deployed_bytes_total{package_type="generic"}'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const before = await deployedBytes();
    // 20 deploys of 10 bytes, spread over both workers by the kernel
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('PUT', `/artifactory/metrics-local/m/${i}.txt`, `0123456-${String(i).padStart(2, '0')}`),
      ),
    );
    // every scrape, whichever worker answers it, counts all 200 bytes
    for (let i = 0; i < 6; i++) expect(await deployedBytes()).toBe(before + 200);
    const text = await (await call('GET', '/metrics')).text();
    // a gauge read from the database is taken once, not summed over the workers
    expect(text).toMatch(/^arca_repository_artifacts\{repository="metrics-local",package_type="generic"\} 20$/m);
  });
});
