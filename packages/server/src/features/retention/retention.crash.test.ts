import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Execution } from '@arca/contracts';
import { ENGINES, createPostgresDatabase } from '../../test/harness.js';
import { freePort } from '../../test/free-port.js';

const MAIN = path.resolve(import.meta.dirname, '../../../dist/main.js');
const PASSWORD = 'Archive-crash-password';
const AUTH = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
const FILES = 2000;

const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

async function start(dataDir: string, port: number, databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      ARCA_DATA_DIR: dataDir,
      ARCA_PORT: String(port),
      ARCA_HOST: '127.0.0.1',
      ARCA_NODE_ID: 'archive-crash-node',
      ARCA_ADMIN_PASSWORD: PASSWORD,
      ARCA_LOG_STDOUT: 'false',
      ARCA_DATABASE_URL: databaseUrl,
      ARCA_WORKERS: '1',
      ARCA_ARCHIVE_RELEASE_GRACE_SECONDS: '0',
    },
    stdio: 'ignore',
  });
  children.push(child);
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/artifactory/api/system/ping`)).ok) return child;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

describe.each(ENGINES)('an archive run killed midway on %s', (engine) => {
  it(
    'goes on after a restart: no artifact lost, none in both places, none archived twice',
    { timeout: 180_000 },
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-archive-crash-'));
      const pg = engine === 'postgres' ? await createPostgresDatabase() : undefined;
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const json = { authorization: AUTH, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
      let server = await start(dataDir, port, pg?.url ?? '');
      const call = async (method: string, url: string, body?: unknown) =>
        fetch(`${base}${url}`, { method, headers: json, ...(body ? { body: JSON.stringify(body) } : {}) });

      expect((await call('PUT', '/artifactory/api/repositories/crash-local', { rclass: 'local' })).status).toBe(200);
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let i = next++; i < FILES; i = next++) {
            const res = await fetch(`${base}/artifactory/crash-local/d${i % 20}/f${i}.bin`, {
              method: 'PUT',
              headers: { authorization: AUTH },
              body: `archived content ${i}`,
            });
            if (res.status !== 201) throw new Error(`deploy f${i}: ${res.status}`);
          }
        }),
      );
      const policy = {
        key: 'crash',
        cronExp: '0 0 3 * * ?',
        skipTrashcan: true,
        searchCriteriaForm: { include: { repositories: ['crash-local'], names: ['*.bin'] } },
      };
      expect((await call('POST', '/ui/api/v1/ui/retention/archive/policies', policy)).status).toBe(201);
      const run = (await (
        await call('POST', '/ui/api/v1/ui/retention/archive/policies/crash/trigger')
      ).json()) as Execution;
      const execution = async () =>
        (
          (await (
            await call('GET', `/ui/api/v1/ui/retention/archive/executions?from=0&to=${Date.now() + 60_000}`)
          ).json()) as {
            executions: Execution[];
          }
        ).executions.find((e) => e.migrationIdentifier === run.migrationIdentifier)!;
      // killed once some items have moved and most have not
      let moved = 0;
      for (let i = 0; i < 1000 && moved < 50; i++) {
        moved = (await execution()).done;
        await new Promise((r) => setTimeout(r, 10));
      }
      server.kill('SIGKILL');
      await new Promise((r) => server.once('exit', r));
      expect(moved).toBeGreaterThanOrEqual(50);
      expect(moved).toBeLessThan(FILES);

      server = await start(dataDir, port, pg?.url ?? '');
      let ended = await execution();
      for (let i = 0; i < 1200 && ended.endedAt === null; i++) {
        await new Promise((r) => setTimeout(r, 50));
        ended = await execution();
      }
      expect(ended).toMatchObject({ state: 'COMPLETE', total: FILES, done: FILES, failed: 0 });

      const left = (await (await call('GET', '/artifactory/api/storage/crash-local?list&deep=1')).json()) as {
        files?: { uri: string }[];
      };
      expect(left.files ?? []).toEqual([]);
      const found = (await (
        await fetch(`${base}/ui/api/v1/ui/retention/search`, {
          method: 'POST',
          headers: { ...json, 'content-type': 'text/plain' },
          body: JSON.stringify({ repositories: ['crash-local'] }),
        })
      ).json()) as { total: number; results: { path: string }[] };
      // each file once in the archive
      expect(found.total).toBe(FILES);
      expect(new Set(found.results.map((r) => r.path)).size).toBe(found.results.length);
      const info = (await (await call('GET', '/ui/api/v1/ui/retention/archive/storageinfo')).json()) as {
        binariesSummary: { artifactsCount: number; binariesCount: number };
      };
      expect(info.binariesSummary).toMatchObject({ artifactsCount: FILES, binariesCount: FILES });

      // and the bytes come back
      const restore = (await (
        await call('POST', '/ui/api/v1/ui/retention/restore', {
          itemsToRestore: [{ repoKey: 'crash-local', path: 'd7/f7.bin' }],
        })
      ).json()) as Execution;
      for (let i = 0; i < 200; i++) {
        const res = await fetch(`${base}/artifactory/crash-local/d7/f7.bin`, { headers: { authorization: AUTH } });
        if (res.status === 200) {
          const bytes = Buffer.from(await res.arrayBuffer());
          expect(createHash('sha256').update(bytes).digest('hex')).toBe(
            createHash('sha256').update('archived content 7').digest('hex'),
          );
          break;
        }
        if (i === 199) throw new Error(`restore ${restore.migrationIdentifier} did not put the file back`);
        await new Promise((r) => setTimeout(r, 50));
      }
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  );
});
