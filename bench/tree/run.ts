/**
 * Tree: a folder with 100 000 children. Prints the API time of its first page (p50/p95 of 50
 * calls) and the median time (5 cold loads, Chromium) from navigation to the first children shown.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ADMIN_PASSWORD, launchBrowser, startServer } from '../../packages/web/e2e/harness.ts';
import { AUTH, build, createRepository, median, percentile } from '../lib/bench.ts';

const CHILDREN = Number(process.env.BENCH_CHILDREN ?? 100_000);

await build(true);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-bench-tree-'));
let server = await startServer({ ARCA_LOG_STDOUT: 'false', ARCA_LOG_LEVEL: 'warn' }, { dataDir });
await createRepository(server.url, 'big-local');
const seed = await fetch(`${server.url}/artifactory/big-local/huge/seed.txt`, {
  method: 'PUT',
  headers: { authorization: AUTH },
  body: 'seed',
});
if (seed.status !== 201) throw new Error('seed deploy failed');
await server.stop();

// the rows a deploy of each file would write, inserted in bulk
const db = new Database(path.join(dataDir, 'arca.db'));
const template = db.prepare("SELECT * FROM items WHERE path = 'huge/seed.txt'").get() as Record<string, unknown>;
const insert = db.prepare(
  'INSERT INTO items (id, repo_key, path, parent, name, folder, sha256, size, mime_type, created_at, created_by, modified_at, modified_by) VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)',
);
db.transaction(() => {
  for (let i = 0; i < CHILDREN - 1; i++) {
    const name = `artifact-${String(i).padStart(6, '0')}.jar`;
    insert.run(
      `bench-${i}`,
      'big-local',
      `huge/${name}`,
      'huge',
      name,
      template.sha256,
      template.size,
      'application/java-archive',
      template.created_at,
      'admin',
      template.modified_at,
      'admin',
    );
  }
})();
db.prepare('UPDATE binaries SET ref_count = ref_count + ?').run(CHILDREN - 1);
db.close();

server = await startServer({ ARCA_LOG_STDOUT: 'false', ARCA_LOG_LEVEL: 'warn' }, { dataDir });
const { browser, close } = await launchBrowser();
try {
  const api: number[] = [];
  for (let i = 0; i < 50; i++) {
    const started = performance.now();
    const res = await fetch(
      `${server.url}/ui/api/v1/ui/treebrowser/children?repoKey=big-local&path=huge&offset=0&limit=200`,
      { headers: { authorization: AUTH } },
    );
    const page = (await res.json()) as { total: number; items: unknown[] };
    if (page.total !== CHILDREN || page.items.length !== 200)
      throw new Error(`unexpected page: ${page.total} / ${page.items.length}`);
    api.push(performance.now() - started);
  }
  const render: number[] = [];
  for (let i = 0; i < 5; i++) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/ui/login`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/ui/overview');
    const started = Date.now();
    await page.goto(`${server.url}/ui/repos/tree/General/big-local/huge`);
    await page.locator('.ant-tree').getByText('artifact-000000.jar').waitFor({ timeout: 30_000 });
    render.push(Date.now() - started);
    if (i === 0) {
      // scrolling to the end of the first page loads the next one
      await page.locator('.ant-tree-list-holder').evaluate((el) => (el.scrollTop = el.scrollHeight));
      await page
        .locator('.ant-tree')
        .getByText('artifact-000250.jar')
        .waitFor({ timeout: 30_000 })
        .catch(() => undefined);
    }
    await context.close();
  }
  console.log(`tree: folder with ${CHILDREN.toLocaleString('en')} children`);
  console.log(
    `tree: API first page (200 children) p50 ${percentile(api, 50).toFixed(1)} ms, p95 ${percentile(api, 95).toFixed(1)} ms (50 calls)`,
  );
  console.log(
    `tree: navigation to first children rendered in Chromium, median of 5 ${median(render)} ms (runs ${render.join(', ')})`,
  );
} finally {
  await close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
