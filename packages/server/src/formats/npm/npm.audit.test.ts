import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NPM_MESSAGES, formatMessage } from '@arca/contracts';
import {
  ADMIN_BASIC,
  ADMIN_PASSWORD,
  ENGINES,
  createRepo,
  startListeningApp,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

const run = promisify(execFile);
const API = '/artifactory/api/npm';

/** What the registry's advisory service knows: lodash before 4.17.21 has a command injection. */
const LODASH_ADVISORY = {
  id: 1106913,
  url: 'https://github.com/advisories/GHSA-35jh-r3h4-6jhm',
  title: 'Command Injection in lodash',
  severity: 'high',
  vulnerable_versions: '<4.17.21',
  cwe: ['CWE-77', 'CWE-94'],
  cvss: { score: 7.2, vectorString: 'CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H' },
};

/**
 * The npm registry's advisory service as `npm audit` calls it: the bulk call (gzipped, as npm
 * sends it) and the older quick audit. Records what it was asked.
 */
async function startAdvisoryService() {
  const asked: { path: string; body: unknown; authorization: string | undefined }[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      let raw = Buffer.concat(chunks);
      if (/gzip/.test(String(request.headers['content-encoding']))) raw = gunzipSync(raw);
      const body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
      asked.push({ path: request.url ?? '', body, authorization: request.headers.authorization });
      const json = (value: unknown) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (request.url === '/-/npm/v1/security/advisories/bulk') {
        const versions = (body.lodash as string[] | undefined) ?? [];
        return json(versions.some((v) => v < '4.17.21') ? { lodash: [LODASH_ADVISORY] } : {});
      }
      if (request.url === '/-/npm/v1/security/audits/quick') {
        return json({
          actions: [],
          advisories: { [LODASH_ADVISORY.id]: { ...LODASH_ADVISORY, module_name: 'lodash' } },
          muted: [],
          metadata: {
            vulnerabilities: { info: 0, low: 0, moderate: 0, high: 1, critical: 0 },
            dependencies: 1,
            devDependencies: 0,
            optionalDependencies: 0,
            totalDependencies: 1,
          },
        });
      }
      response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(ENGINES)('npm audit through Arca on %s', (engine) => {
  let t: TestApp;
  let advisories: Awaited<ReturnType<typeof startAdvisoryService>>;
  let base: string;
  beforeAll(async () => {
    advisories = await startAdvisoryService();
    t = await startTestApp(engine, { ARCA_OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    await createRepo(t.app, 'npm-local', { rclass: 'local', packageType: 'npm' });
    await createRepo(t.app, 'npm-remote', {
      rclass: 'remote',
      packageType: 'npm',
      url: advisories.url,
      username: 'mirror',
      password: 'mirror-secret',
    });
    await createRepo(t.app, 'npm-down', { rclass: 'remote', packageType: 'npm', url: 'https://npm.upstream.invalid/' });
    await createRepo(t.app, 'npm', {
      rclass: 'virtual',
      packageType: 'npm',
      repositories: ['npm-local', 'npm-remote'],
    });
    await createRepo(t.app, 'npm-broken', {
      rclass: 'virtual',
      packageType: 'npm',
      repositories: ['npm-local', 'npm-remote', 'npm-down'],
    });
  });
  afterAll(async () => {
    await t?.close();
    await advisories?.stop();
  });

  const bulk = (repo: string, body: object) =>
    t.app.inject({
      method: 'POST',
      url: `${API}/${repo}/-/npm/v1/security/advisories/bulk`,
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify(body)),
    });

  it('answers the bulk advisory call from the upstreams of remote members, and nothing from a local one', async () => {
    for (const repo of ['npm-remote', 'npm']) {
      const res = await bulk(repo, { lodash: ['4.17.20'] });
      expect(res.statusCode, repo).toBe(200);
      expect(res.json(), repo).toEqual({ lodash: [LODASH_ADVISORY] });
    }
    // the upstream gets the repository's credentials, as its package requests do
    expect(advisories.asked.at(-1)?.authorization).toBe(
      `Basic ${Buffer.from('mirror:mirror-secret').toString('base64')}`,
    );
    expect((await bulk('npm-local', { lodash: ['4.17.20'] })).json()).toEqual({});
    const quick = await t.app.inject({
      method: 'POST',
      url: `${API}/npm/-/npm/v1/security/audits/quick`,
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
      payload: {
        name: 'app',
        version: '1.0.0',
        requires: { lodash: '4.17.20' },
        dependencies: { lodash: { version: '4.17.20' } },
      },
    });
    expect(quick.statusCode).toBe(200);
    expect(quick.json().metadata.vulnerabilities).toMatchObject({ high: 1 });
  });

  it('fails an audit an upstream cannot answer, naming the repository, rather than passing it', async () => {
    const res = await bulk('npm-broken', { lodash: ['4.17.20'] });
    expect(res.statusCode).toBe(502);
    const [before] = formatMessage(NPM_MESSAGES.auditUnavailable, { key: 'npm-down', reason: '|' }).split('|');
    expect(res.json().errors[0].message.startsWith(before!)).toBe(true);
    expect(res.json().errors[0].message).toContain('npm.upstream.invalid');
    const bad = await t.app.inject({
      method: 'POST',
      url: `${API}/npm/-/npm/v1/security/advisories/bulk`,
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
      payload: '{nope',
    });
    expect(bad.statusCode).toBe(400);
  });

  /** The real `npm audit` of a lock file naming these packages, through a repository (its JSON report and exit code). */
  async function npmAudit(registry: string, packages: Record<string, string>) {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-npm-audit-'));
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'audited', version: '1.0.0', dependencies: packages }),
    );
    fs.writeFileSync(
      path.join(project, 'package-lock.json'),
      JSON.stringify({
        name: 'audited',
        version: '1.0.0',
        lockfileVersion: 3,
        requires: true,
        packages: {
          '': { name: 'audited', version: '1.0.0', dependencies: packages },
          ...Object.fromEntries(
            Object.entries(packages).map(([name, version]) => [
              `node_modules/${name}`,
              {
                version,
                resolved: `${registry}${name}/-/${name}-${version}.tgz`,
                integrity:
                  'sha512-PlhdFcillOINfeV7Ni6oF1TAEayyZBoZ8bcshTHqOYJYlrqzRK5hagpagky5o4HfCzzd1TRkXPMFq6cKk9rGmA==',
              },
            ]),
          ),
        },
      }),
    );
    const auth = Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64');
    fs.writeFileSync(
      path.join(project, '.npmrc'),
      `registry=${registry}\n${registry.replace(/^http:/, '')}:_auth=${auth}\naudit-level=high\n`,
    );
    try {
      const audited = await run('npm', ['audit', '--json', '--package-lock-only'], {
        cwd: project,
        env: { ...process.env, npm_config_cache: path.join(project, '.cache'), npm_config_update_notifier: 'false' },
      }).catch((error: { stdout?: string; code?: number }) => ({ stdout: error.stdout ?? '', code: error.code }));
      const report = JSON.parse(audited.stdout) as {
        vulnerabilities: Record<string, { severity: string; range: string; via: { title?: string; url?: string }[] }>;
        metadata: { vulnerabilities: Record<string, number> };
      };
      return { report, code: (audited as { code?: number }).code ?? 0 };
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  }

  it('lets the real npm audit a lock file through a virtual repository', async () => {
    const { report, code } = await npmAudit(`${base}${API}/npm/`, { lodash: '4.17.20' });
    expect(report.vulnerabilities.lodash).toMatchObject({ severity: 'high' });
    expect(report.vulnerabilities.lodash!.via[0]).toMatchObject({ title: 'Command Injection in lodash' });
    expect(report.metadata.vulnerabilities.high).toBe(1);
    // npm exits non-zero at the audit level: the CI gate holds
    expect(code).toBe(1);
  });

  it('reports the OSV advisories another Arca holds, through a virtual repository whose remote is that Arca', async () => {
    const upstream = await startListeningApp(engine);
    try {
      await createRepo(upstream.app, 'npm-local', { rclass: 'local', packageType: 'npm' });
      const record = (id: string, name: string, events: object[], severity: string) => ({
        id,
        modified: '2026-02-01T00:00:00Z',
        summary: `${name} lets a crafted input through`,
        affected: [{ package: { ecosystem: 'npm', name }, ranges: [{ type: 'SEMVER', events }] }],
        database_specific: { severity },
      });
      const imported = await upstream.app.inject({
        method: 'POST',
        url: '/xray/api/v1/advisories/import?name=written.json',
        headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
        payload: JSON.stringify([
          record('GHSA-arca-0001', 'pad-left', [{ introduced: '1.0.0' }, { fixed: '1.0.4' }], 'CRITICAL'),
          record('GHSA-arca-0002', 'pad-left', [{ introduced: '2.0.0' }, { last_affected: '2.1.0' }], 'LOW'),
          record('GHSA-arca-0003', 'trim-all', [{ introduced: '0' }, { fixed: '0.2.0' }], 'MODERATE'),
        ]),
      });
      expect(imported.statusCode).toBe(200);
      await createRepo(t.app, 'npm-arca', {
        rclass: 'remote',
        packageType: 'npm',
        url: `${upstream.url}${API}/npm-local/`,
        username: 'admin',
        password: ADMIN_PASSWORD,
      });
      await createRepo(t.app, 'npm-through-arca', {
        rclass: 'virtual',
        packageType: 'npm',
        repositories: ['npm-local', 'npm-arca'],
      });
      const { report, code } = await npmAudit(`${base}${API}/npm-through-arca/`, {
        'pad-left': '1.0.2',
        'trim-all': '0.3.0',
        'is-odd': '3.0.1',
      });
      // exactly the advisory that covers the installed version: not the one of 2.x, nothing for the others
      expect(Object.keys(report.vulnerabilities)).toEqual(['pad-left']);
      expect(report.vulnerabilities['pad-left']).toMatchObject({ severity: 'critical' });
      expect(report.vulnerabilities['pad-left']!.via).toEqual([
        expect.objectContaining({
          title: 'pad-left lets a crafted input through',
          url: 'https://osv.dev/vulnerability/GHSA-arca-0001',
        }),
      ]);
      expect(report.metadata.vulnerabilities).toMatchObject({ critical: 1, high: 0, moderate: 0, low: 0 });
      expect(code).toBe(1);
    } finally {
      await upstream.close();
    }
  });
});
