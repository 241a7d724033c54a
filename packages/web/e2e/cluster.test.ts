import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../server/src/test/postgres';
import { S3_TEST_CREDENTIALS, startS3Server, type S3TestServer } from '../../server/src/test/s3-server';
import { clientHome, run } from './clients/clients';
import { writeOciLayout } from './clients/oci-layout';
import { ADMIN_PASSWORD, freePort, NGINX, startNginx, startServer, type RunningServer } from './harness';

const AUTH = { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` };
const sha256 = (body: Buffer | string) => createHash('sha256').update(body).digest('hex');
const { home, env } = clientHome();
const npm = (args: string[], cwd: string) => run('npm', args, { cwd, env });
const skopeo = (...args: string[]) => run('skopeo', args, { cwd: home, env });

/**
 * What a CI job does when a request of its client was cut by a node's death: runs the step once
 * more. `settled` tells whether the failed first run had in fact done its work (a publish whose
 * answer was lost); the second run must succeed.
 */
async function retriedOnce<T>(
  retries: string[],
  what: string,
  step: () => Promise<T>,
  settled?: (error: Error) => boolean,
): Promise<T | undefined> {
  try {
    return await step();
  } catch {
    retries.push(what);
    return step().catch((error: Error) => {
      if (settled?.(error)) return undefined;
      throw error;
    });
  }
}

describe.runIf(process.env.ARCA_TEST_DATABASE_URL && fs.existsSync(NGINX))(
  'three nodes on PostgreSQL and an object store behind nginx',
  () => {
    let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
    let s3: S3TestServer;
    const nodes: (RunningServer | undefined)[] = [];
    const ports: number[] = [];
    let proxy: Awaited<ReturnType<typeof startNginx>>;
    const backups = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-cluster-backups-'));

    const nodeEnv = (i: number) => ({
      ...s3.env,
      ...S3_TEST_CREDENTIALS,
      ARCA_DATABASE_URL: database.url,
      ARCA_NODE_ID: `node-${i + 1}`,
      ARCA_PORT: String(ports[i]),
      ARCA_LOG_STDOUT: 'false',
      // the webhook receiver of the tests listens on this machine
      ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
      // a scheduled job every minute, to see that each slot runs on one node only
      ARCA_BACKUP_SCHEDULE: '* * * * *',
      // one folder every node mounts (a shared volume in production)
      ARCA_BACKUP_DIR: backups,
    });

    beforeAll(async () => {
      database = await createPostgresDatabase();
      s3 = await startS3Server();
      for (let i = 0; i < 3; i++) ports.push(await freePort());
      // the first node runs the migrations; the others start on the migrated database
      nodes[0] = await startServer(nodeEnv(0));
      nodes[1] = await startServer(nodeEnv(1));
      nodes[2] = await startServer(nodeEnv(2));
      proxy = await startNginx(ports);
      const created = await fetch(`${proxy.url}/artifactory/api/repositories/cluster-local`, {
        method: 'PUT',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ rclass: 'local' }),
      });
      expect(created.status).toBe(200);
      const docker = await fetch(`${proxy.url}/artifactory/api/repositories/cluster-docker`, {
        method: 'PUT',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ rclass: 'local', packageType: 'docker' }),
      });
      expect(docker.status).toBe(200);
      const npmRepo = await fetch(`${proxy.url}/artifactory/api/repositories/cluster-npm`, {
        method: 'PUT',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ rclass: 'local', packageType: 'npm' }),
      });
      expect(npmRepo.status).toBe(200);
    });

    afterAll(async () => {
      await proxy?.stop();
      for (const node of nodes) await node?.stop();
      await s3?.stop();
      await database?.drop();
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(backups, { recursive: true, force: true });
    });

    it(
      'loses nothing acknowledged when a node is killed mid-load, and shares sessions, uploads in parts, jobs and events',
      { timeout: 180_000 },
      async () => {
        // a console session made on node 1
        const login = await fetch(`http://127.0.0.1:${ports[0]}/ui/api/v1/ui/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
          body: JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD, type: 'login' }),
        });
        expect(login.status).toBe(200);
        const cookie = login.headers
          .getSetCookie()
          .find((c) => c.startsWith('arca_session='))!
          .split(';')[0]!;

        // a container layer pushed in parts, each part to another node
        const layer = randomBytes(3 * 1024 * 1024);
        const opened = await fetch(`http://127.0.0.1:${ports[0]}/v2/cluster-docker/app/blobs/uploads/`, {
          method: 'POST',
          headers: AUTH,
        });
        expect(opened.status).toBe(202);
        const uploadPath = opened.headers.get('location')!.replace(/^https?:\/\/[^/]+/, '');
        const half = layer.length / 2;
        const first = await fetch(`http://127.0.0.1:${ports[1]}${uploadPath}`, {
          method: 'PATCH',
          headers: { ...AUTH, 'content-type': 'application/octet-stream', 'content-range': `0-${half - 1}` },
          body: layer.subarray(0, half),
        });
        expect(first.status).toBe(202);

        // the load: deploys and reads through nginx, a node killed with SIGKILL in the middle
        const acknowledged = new Map<string, string>();
        let stop = false;
        let next = 0;
        const writers = Array.from({ length: 6 }, async () => {
          while (!stop) {
            const name = `load/f${next++}.bin`;
            const body = randomBytes(next % 5 === 0 ? 1024 * 1024 : 2048);
            const res = await fetch(`${proxy.url}/artifactory/cluster-local/${name}`, {
              method: 'PUT',
              headers: AUTH,
              body,
            }).catch(() => undefined);
            if (res?.status === 201) acknowledged.set(name, sha256(body));
            await res?.arrayBuffer().catch(() => undefined);
          }
        });
        const readers = Array.from({ length: 2 }, async () => {
          while (!stop) {
            const known = [...acknowledged.keys()];
            if (!known.length) {
              await new Promise((resolve) => setTimeout(resolve, 20));
              continue;
            }
            const name = known[Math.floor(Math.random() * known.length)]!;
            // a read is never partial nor wrong: the whole content, or — cut by the kill — an error
            // the client sees (and would retry)
            const body = await fetch(`${proxy.url}/artifactory/cluster-local/${name}`, { headers: AUTH })
              .then(async (res) => (res.status === 200 ? Buffer.from(await res.arrayBuffer()) : undefined))
              .catch(() => undefined);
            if (body) expect(sha256(body)).toBe(acknowledged.get(name));
          }
        });
        // the clients of a team at the same time, through nginx: npm publishes, skopeo pushes, console logins
        const retries: string[] = [];
        const registry = `${proxy.url}/artifactory/api/npm/cluster-npm/`;
        const host = proxy.url.replace('http://', '');
        const token = (
          (await (
            await fetch(`${proxy.url}/access/api/v1/tokens`, {
              method: 'POST',
              headers: { ...AUTH, 'content-type': 'application/json' },
              body: JSON.stringify({ description: 'cluster clients' }),
            })
          ).json()) as { access_token: string }
        ).access_token;
        const layout = path.join(home, 'layout');
        const image = await writeOciLayout(layout, '1.0', [
          { platform: { architecture: 'amd64', os: 'linux' }, layers: [{ 'etc/hello': 'hello from a cluster\n' }] },
        ]);
        const published: string[] = [];
        const pushed: string[] = [];
        let logins = 0;
        const packageClient = (async () => {
          for (let i = 0; !stop || published.length < 2; i++) {
            const dir = fs.mkdtempSync(path.join(home, 'pkg-'));
            const version = `1.0.${i}`;
            fs.writeFileSync(
              path.join(dir, 'package.json'),
              JSON.stringify({ name: 'cluster-greeter', version, main: 'index.js', license: 'MIT' }),
            );
            fs.writeFileSync(path.join(dir, 'index.js'), `module.exports = 'hello ${version}';\n`);
            fs.writeFileSync(
              path.join(dir, '.npmrc'),
              `registry=${registry}\n${registry.replace(/^https?:/, '')}:_authToken=${token}\n`,
            );
            // a publish whose answer was lost is found published by the second run
            await retriedOnce(
              retries,
              `npm publish ${version}`,
              () => npm(['publish'], dir),
              (error) => /cannot publish over|previously published|EPUBLISHCONFLICT/i.test(error.message),
            );
            published.push(version);
          }
        })();
        const imageClient = (async () => {
          for (let i = 0; !stop || pushed.length < 2; i++) {
            const tag = `1.${i}`;
            await retriedOnce(retries, `skopeo copy ${tag}`, () =>
              skopeo(
                'copy',
                '--multi-arch',
                'all',
                '--preserve-digests',
                '--dest-tls-verify=false',
                '--dest-creds',
                `admin:${ADMIN_PASSWORD}`,
                `oci:${layout}:1.0`,
                `docker://${host}/cluster-docker/team/app:${tag}`,
              ),
            );
            pushed.push(tag);
          }
        })();
        const consoleClient = (async () => {
          while (!stop || logins < 3) {
            const signIn = async () => {
              const res = await fetch(`${proxy.url}/ui/api/v1/ui/auth/login`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
                body: JSON.stringify({ user: 'admin', password: ADMIN_PASSWORD, type: 'login' }),
              });
              if (res.status !== 200) throw new Error(`login answered ${res.status}`);
              const session = res.headers
                .getSetCookie()
                .find((c) => c.startsWith('arca_session='))!
                .split(';')[0]!;
              const current = await fetch(`${proxy.url}/ui/api/v1/ui/auth/current`, {
                headers: { cookie: session, 'x-requested-with': 'XMLHttpRequest' },
              });
              if (((await current.json()) as { name: string }).name !== 'admin') throw new Error('not signed in');
            };
            await retriedOnce(retries, 'console login', signIn);
            logins += 1;
          }
        })();

        await expect.poll(() => acknowledged.size, { timeout: 30_000 }).toBeGreaterThan(60);
        nodes[1]!.process.kill('SIGKILL');
        await new Promise((resolve) => nodes[1]!.process.once('exit', resolve));
        const beforeRestart = acknowledged.size;
        await expect.poll(() => acknowledged.size, { timeout: 30_000 }).toBeGreaterThan(beforeRestart + 60);
        nodes[1] = await startServer(nodeEnv(1));
        await expect.poll(() => acknowledged.size, { timeout: 30_000 }).toBeGreaterThan(beforeRestart + 120);
        stop = true;
        await Promise.all([...writers, ...readers, packageClient, imageClient, consoleClient]);
        // a request cut by the kill costs a client one retry at most (each step above succeeded by its second run)
        expect(retries.length).toBeLessThanOrEqual(4);

        // every version npm published installs through nginx, its content intact
        const app = fs.mkdtempSync(path.join(home, 'app-'));
        fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'cluster-app', version: '1.0.0' }));
        fs.writeFileSync(
          path.join(app, '.npmrc'),
          `registry=${registry}\n${registry.replace(/^https?:/, '')}:_authToken=${token}\n`,
        );
        const versions = JSON.parse(await npm(['view', 'cluster-greeter', 'versions', '--json'], app)) as string[];
        expect(versions).toEqual(expect.arrayContaining(published));
        const newest = published[published.length - 1]!;
        await npm(['install', `cluster-greeter@${newest}`], app);
        expect(fs.readFileSync(path.join(app, 'node_modules/cluster-greeter/index.js'), 'utf8')).toBe(
          `module.exports = 'hello ${newest}';\n`,
        );
        // every tag skopeo pushed pulls back with the image's digest
        for (const tag of pushed) {
          const out = path.join(home, `pulled-${tag}`);
          await skopeo(
            'copy',
            '--multi-arch',
            'all',
            '--preserve-digests',
            '--src-tls-verify=false',
            '--src-creds',
            `admin:${ADMIN_PASSWORD}`,
            `docker://${host}/cluster-docker/team/app:${tag}`,
            `oci:${out}:${tag}`,
          );
          const index = JSON.parse(fs.readFileSync(path.join(out, 'index.json'), 'utf8')) as {
            manifests: { digest: string }[];
          };
          expect(index.manifests[0]!.digest).toBe(image.index);
        }
        expect(logins).toBeGreaterThanOrEqual(3);

        // every acknowledged deploy is there with its SHA-256, whichever node answers
        const listed = (await (
          await fetch(`${proxy.url}/artifactory/api/storage/cluster-local/load?list&deep=1`, { headers: AUTH })
        ).json()) as { files: { uri: string; sha2: string }[] };
        const stored = new Map(listed.files.map((f) => [`load${f.uri}`, f.sha2]));
        for (const [name, digest] of acknowledged) expect(stored.get(name), name).toBe(digest);
        for (const [name] of [...acknowledged].slice(0, 40)) {
          const res = await fetch(`http://127.0.0.1:${ports[2]}/artifactory/cluster-local/${name}`, { headers: AUTH });
          expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(acknowledged.get(name));
        }

        // the session made on node 1 works on node 3; the layer's second half goes to node 3, the
        // node that took the first half having died and come back in between
        const me = await fetch(`http://127.0.0.1:${ports[2]}/ui/api/v1/ui/auth/current`, {
          headers: { cookie, 'x-requested-with': 'XMLHttpRequest' },
        });
        expect(me.status).toBe(200);
        expect(((await me.json()) as { name: string }).name).toBe('admin');
        const second = await fetch(`http://127.0.0.1:${ports[2]}${uploadPath}`, {
          method: 'PATCH',
          headers: {
            ...AUTH,
            'content-type': 'application/octet-stream',
            'content-range': `${half}-${layer.length - 1}`,
          },
          body: layer.subarray(half),
        });
        expect(second.status).toBe(202);
        const digest = `sha256:${sha256(layer)}`;
        const done = await fetch(`http://127.0.0.1:${ports[0]}${uploadPath}?digest=${digest}`, {
          method: 'PUT',
          headers: AUTH,
        });
        expect(done.status).toBe(201);
        const blob = await fetch(`${proxy.url}/v2/cluster-docker/app/blobs/${digest}`, { headers: AUTH });
        expect(sha256(Buffer.from(await blob.arrayBuffer()))).toBe(sha256(layer));

        // the scheduled job ran once per minute whichever nodes were up; every event once per consumer
        const db = new pg.Client({ connectionString: database.url });
        await db.connect();
        try {
          await expect
            .poll(
              async () =>
                Number(
                  (await db.query("select count(*) as n from work_tasks where serial_key = 'job:backup'")).rows[0].n,
                ),
              {
                timeout: 75_000,
                interval: 1_000,
              },
            )
            .toBeGreaterThan(0);
          const perSlot = await db.query(
            "select floor(started_at / 60000) as slot, count(*) as n from work_tasks where serial_key = 'job:backup' group by 1 having count(*) > 1",
          );
          expect(perSlot.rows).toEqual([]);
          // whichever node made them, every node lists the same backups
          await expect
            .poll(
              async () => {
                const lists = await Promise.all(
                  ports.map(async (port) => {
                    const res = await fetch(`http://127.0.0.1:${port}/ui/api/v1/system/backups`, {
                      headers: { ...AUTH, 'x-requested-with': 'XMLHttpRequest' },
                    });
                    const answer = (await res.json()) as { backups: { name: string }[] };
                    return answer.backups.map((b) => b.name).join(',');
                  }),
                );
                return lists[0] !== '' && lists.every((list) => list === lists[0]);
              },
              { timeout: 30_000, interval: 500 },
            )
            .toBe(true);
          await expect
            .poll(
              async () =>
                Number(
                  (
                    await db.query(
                      `select count(*) as n from events e where e.type = 'artifact.deployed' and not exists
                     (select 1 from event_receipts r where r.event_id = e.id and r.consumer = 'class-index' and r.delivered_at is not null)`,
                    )
                  ).rows[0].n,
                ),
              { timeout: 30_000, interval: 500 },
            )
            .toBe(0);
          const deployed = await db.query(
            "select count(*) as n from events where type = 'artifact.deployed' and path like 'load/%'",
          );
          expect(Number(deployed.rows[0].n)).toBeGreaterThanOrEqual(acknowledged.size);
        } finally {
          await db.end();
        }
      },
    );

    it(
      'delivers every event of a burst that starts with its subscription, a node killed midway',
      { timeout: 240_000 },
      async () => {
        const arrivals: { eventId: string; path: string }[] = [];
        const receiver = http.createServer((req, res) => {
          let body = '';
          req.on('data', (chunk: Buffer) => (body += chunk.toString()));
          req.on('end', () => {
            const payload = JSON.parse(body) as { event_id: string; data: { path: string } };
            arrivals.push({ eventId: payload.event_id, path: payload.data.path });
            res.writeHead(200).end();
          });
        });
        await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
        const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
        try {
          const repo = await fetch(`${proxy.url}/artifactory/api/repositories/cluster-hooks`, {
            method: 'PUT',
            headers: { ...AUTH, 'content-type': 'application/json' },
            body: JSON.stringify({ rclass: 'local' }),
          });
          expect(repo.status).toBe(200);
          // the subscription is made on node 1; the deploys start at once, through nginx, on every node
          const created = await fetch(`http://127.0.0.1:${ports[0]}/event/api/v1/subscriptions`, {
            method: 'POST',
            headers: { ...AUTH, 'content-type': 'application/json' },
            body: JSON.stringify({
              key: 'cluster-burst',
              event_filter: {
                domain: 'artifact',
                event_types: ['deployed'],
                criteria: { repoKeys: ['cluster-hooks'] },
              },
              handlers: [{ url: receiverUrl }],
            }),
          });
          expect(created.status).toBe(201);
          const acknowledged = new Set<string>();
          let next = 0;
          let killed: Promise<unknown> | undefined;
          await Promise.all(
            Array.from({ length: 8 }, async () => {
              for (let i = next++; i < 500; i = next++) {
                if (i === 250 && !killed) {
                  killed = new Promise((resolve) => nodes[1]!.process.once('exit', resolve));
                  nodes[1]!.process.kill('SIGKILL');
                }
                const path = `burst/f-${i}.txt`;
                const res = await fetch(`${proxy.url}/artifactory/cluster-hooks/${path}`, {
                  method: 'PUT',
                  headers: AUTH,
                  body: `file ${i}`,
                }).catch(() => undefined);
                if (res?.status === 201) acknowledged.add(path);
                await res?.arrayBuffer().catch(() => undefined);
              }
            }),
          );
          await killed;
          nodes[1] = await startServer(nodeEnv(1));
          expect(acknowledged.size).toBeGreaterThan(450);
          // every acknowledged deploy arrives: none lost
          await expect
            .poll(() => [...acknowledged].filter((p) => !arrivals.some((a) => a.path === p)).length, {
              timeout: 120_000,
              interval: 500,
            })
            .toBe(0);
          // A deploy cut by the kill may be taken twice (its PUT repeated by a client or the proxy after
          // the first had been stored): two deploys, two events. Each event recorded arrives, under its
          // own id, and nothing else does.
          const db = new pg.Client({ connectionString: database.url });
          await db.connect();
          let recorded: { id: string; path: string }[] = [];
          try {
            await expect
              .poll(
                async () => {
                  recorded = (
                    await db.query<{ id: string; path: string }>(
                      "select id, path from events where type = 'artifact.deployed' and repo_key = 'cluster-hooks'",
                    )
                  ).rows;
                  return recorded.filter((r) => !arrivals.some((a) => a.eventId === r.id)).length;
                },
                { timeout: 60_000, interval: 500 },
              )
              .toBe(0);
          } finally {
            await db.end();
          }
          // a re-sent event carries the same event_id (the receiver's idempotency key); the re-sends are
          // at most the batch the killed node had taken (50 deliveries)
          const byEvent = new Map(arrivals.map((a) => [a.eventId, a.path]));
          const duplicates = arrivals.length - byEvent.size;
          const deployedTwice = recorded.length - new Set(recorded.map((r) => r.path)).size;
          console.log(
            `webhook burst over 3 nodes: ${byEvent.size} events, ${duplicates} sent twice, ${deployedTwice} paths deployed twice`,
          );
          expect(new Map([...byEvent].sort())).toEqual(
            new Map(recorded.map((r): [string, string] => [r.id, r.path]).sort()),
          );
          expect(duplicates).toBeLessThanOrEqual(50);
        } finally {
          await new Promise((resolve) => receiver.close(resolve));
        }
      },
    );

    it(
      'a node stopped by its process group finishes the download in flight and leaves the load balancer at once',
      { timeout: 180_000 },
      async () => {
        const content = randomBytes(96 * 1024 * 1024);
        const put = await fetch(`${proxy.url}/artifactory/cluster-local/big/large.bin`, {
          method: 'PUT',
          headers: AUTH,
          body: content,
        });
        expect(put.status).toBe(201);
        // node 3 as a service manager runs it: two workers, its own process group
        await nodes[2]!.stop();
        nodes[2] = undefined;
        // a grace period longer than any wait of this test: the node must outlast the slow client because
        // the download is in flight, never because the test happened to be quick
        const stopped = await startServer(
          { ...nodeEnv(2), ARCA_WORKERS: '2', ARCA_STOP_GRACE_SECONDS: '600' },
          { processGroup: true },
        );
        nodes[2] = stopped;
        const received: Buffer[] = [];
        let length = 0;
        const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
          http
            .get(`http://127.0.0.1:${ports[2]}/artifactory/cluster-local/big/large.bin`, { headers: AUTH }, resolve)
            .on('error', reject),
        );
        expect(response.statusCode).toBe(200);
        const ended = new Promise<void>((resolve, reject) => {
          response.on('end', resolve);
          response.on('error', reject);
          response.on('aborted', () => reject(new Error(`the download was cut at ${length} bytes`)));
        });
        // a slow client: 8 MiB read, then nothing while the node is told to stop
        await new Promise<void>((resolve) => {
          let paused = false;
          response.on('data', (chunk: Buffer) => {
            received.push(chunk);
            length += chunk.length;
            if (length >= 8 * 1024 * 1024 && !paused) {
              paused = true;
              response.pause();
              resolve();
            }
          });
        });
        const exited = new Promise<number | null>((resolve) => stopped.process.once('exit', (code) => resolve(code)));
        process.kill(-stopped.process.pid!, 'SIGTERM');
        // a second stop signal (an impatient operator, a runtime repeating it) changes nothing
        await new Promise((resolve) => setTimeout(resolve, 300));
        process.kill(-stopped.process.pid!, 'SIGTERM');

        // out of the load balancer at once: no new connection, Offline in the nodes table
        await expect
          .poll(
            () =>
              fetch(`http://127.0.0.1:${ports[2]}/readyz`).then(
                (res) => res.status,
                () => 'refused',
              ),
            { timeout: 5_000, interval: 100 },
          )
          .not.toBe(200);
        await expect
          .poll(
            async () => {
              const res = await fetch(`http://127.0.0.1:${ports[0]}/ui/api/v1/system/status/nodes`, {
                headers: { ...AUTH, 'x-requested-with': 'XMLHttpRequest' },
              });
              const { nodes: listed } = (await res.json()) as { nodes: { node_id: string; status: string }[] };
              return listed.find((n) => n.node_id === 'node-3')?.status;
            },
            { timeout: 5_000, interval: 100 },
          )
          .toBe('Offline');
        // the others serve every request meanwhile
        for (let i = 0; i < 12; i++) {
          const ping = await fetch(`${proxy.url}/artifactory/api/system/ping`);
          expect(ping.status, proxy.errorLog()).toBe(200);
        }
        expect(stopped.process.exitCode).toBeNull();

        // the client reads on: the whole file arrives, then the node exits cleanly
        response.resume();
        await ended;
        expect(length).toBe(content.length);
        expect(sha256(Buffer.concat(received))).toBe(sha256(content));
        expect(await exited).toBe(0);
        nodes[2] = await startServer(nodeEnv(2));
      },
    );
  },
);
