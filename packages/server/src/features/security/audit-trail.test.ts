import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ENGINES,
  XHR,
  createRepo,
  login,
  messages,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';
import { recordAudit } from '../../core/changes.js';

/** Every administrative change leaves an entry in the audit trail, which exports as CSV and JSON. */
describe.each(ENGINES)('the audit trail on %s', (engine) => {
  let t: TestApp;
  let headers: Record<string, string>;
  beforeEach(async () => {
    t = await startTestApp(engine);
    headers = { ...XHR, cookie: (await login(t.app)).cookie };
  });
  afterEach(async () => {
    await t.close();
  });

  const ui = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/ui/api/v1/${url}`, headers, ...(payload ? { payload } : {}) });
  const trail = async (category: string) =>
    (
      (await ui('GET', `ui/audit?category=${category}`)).json() as {
        events: { action: string; target: string; details: { before?: unknown; after?: unknown; message?: string } }[];
      }
    ).events
      .map((e) => `${e.action} ${e.target}`)
      .reverse();

  it('records repository creation, update, quick creation and deletion, and licence installs', async () => {
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    await ui('PUT', 'ui/admin/repositories/libs-local', { description: 'Libraries' });
    await ui('POST', 'ui/admin/repositories/quick', { packageType: 'npm', prefix: 'npm', remoteUrl: '' });
    await ui('POST', 'ui/admin/repositories/libs-local/delete', { confirmKey: 'libs-local' });
    expect(await trail('repository')).toEqual([
      'create libs-local',
      'update libs-local',
      'create npm-local',
      'create npm-remote',
      'create npm',
      'delete libs-local',
    ]);
    const update = (await ui('GET', 'ui/audit?category=repository&q=update')).json().events[0];
    expect(update.details.before.description).toBe('');
    expect(update.details.after.description).toBe('Libraries');

    await ui('POST', 'ui/license', {
      licenseKey: t.app.license.issue({ edition: 'ENTERPRISE', licensee: 'Acme', days: 30 }),
    });
    const [install] = (await ui('GET', 'ui/audit?category=license')).json().events;
    expect(install.action).toBe('install');
    expect(install.details.after).toMatchObject({ edition: 'ENTERPRISE', licensee: 'Acme' });
  });

  it('exports the filtered trail as CSV and JSON', async () => {
    await createRepo(t.app, 'a-local', { rclass: 'local', description: '=HYPERLINK("x")' });
    await createRepo(t.app, 'b-local', { rclass: 'local' });
    const csv = await ui('GET', 'ui/audit/export?format=csv&category=repository');
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="arca-audit-.*\.csv"$/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      '"time","actor","source ip","category","action","target","outcome","message","before","after"',
    );
    expect(lines.slice(1).map((l) => l.split(',')[5])).toEqual(['"b-local"', '"a-local"']);
    const json = await ui('GET', 'ui/audit/export?format=json&category=repository&q=a-local');
    expect(json.json().map((e: { target: string }) => e.target)).toEqual(['a-local']);
    expect(json.headers['content-disposition']).toContain('.json"');
    // only administrators export
    const anonymous = await t.app.inject({ url: '/ui/api/v1/ui/audit/export', headers: XHR });
    expect(anonymous.statusCode).toBe(401);
  });

  it('deletes a repository with its content after the key is typed, refusing while a virtual or project lists it', async () => {
    await createRepo(t.app, 'libs-local', { rclass: 'local' });
    await createRepo(t.app, 'v', { rclass: 'virtual', repositories: ['libs-local'] });
    for (let i = 0; i < 30; i++) await put(t.app, `/artifactory/libs-local/dir${i % 3}/f${i}.txt`, `content ${i}`);
    await put(t.app, '/artifactory/libs-local/dir0/gone.txt', 'trashed');
    await t.app.inject({ method: 'DELETE', url: '/artifactory/libs-local/dir0/gone.txt', headers: ADMIN_BASIC });

    const wrongKey = await ui('POST', 'ui/admin/repositories/libs-local/delete', { confirmKey: 'libs' });
    expect([wrongKey.statusCode, messages(wrongKey)]).toEqual([
      400,
      ["Type the repository key 'libs-local' to confirm the deletion."],
    ]);
    const listed = await ui('POST', 'ui/admin/repositories/libs-local/delete', { confirmKey: 'libs-local' });
    expect([listed.statusCode, messages(listed)]).toEqual([
      409,
      ["Repository 'libs-local' is a member of the virtual repository 'v'."],
    ]);
    expect((await t.app.inject({ url: '/artifactory/libs-local/dir1/f1.txt', headers: ADMIN_BASIC })).statusCode).toBe(
      200,
    );

    await ui('DELETE', 'ui/admin/repositories/v');
    const done = await ui('POST', 'ui/admin/repositories/libs-local/delete', { confirmKey: 'libs-local' });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ state: 'done', files: 30, deletedFiles: 30 });
    expect(
      (await t.app.inject({ url: '/artifactory/api/repositories/libs-local', headers: ADMIN_BASIC })).statusCode,
    ).toBe(404);
    const left = await t.app.db.selectFrom('items').select('path').where('repo_key', '=', 'libs-local').execute();
    expect(left).toEqual([]);
    const [entry] = (await ui('GET', 'ui/audit?category=repository&q=delete')).json().events;
    expect(entry.details.message).toMatch(/^deleted with 30 file\(s\), \d+ bytes$/);
  });

  it('lists entries written in the same millisecond in the order they were made', async () => {
    const at = Date.now();
    for (let i = 0; i < 30; i++)
      await recordAudit(
        t.app.db,
        { actor: 'admin', sourceIp: '127.0.0.1' },
        { category: 'repository', action: 'create', target: `r${i}` },
        at,
      );
    expect(await trail('repository')).toEqual(Array.from({ length: 30 }, (_, i) => `create r${i}`));
  });
});
