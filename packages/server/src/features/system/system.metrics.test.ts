import fs from 'node:fs';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_BASIC,
  ENGINES,
  createRepo,
  createUser,
  login,
  put,
  startTestApp,
  type TestApp,
} from '../../test/harness.js';

const SCRAPE_TOKEN = 'scrape-token-for-the-test-0123456789';

describe.each(ENGINES)('Prometheus metrics on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { ARCA_METRICS_TOKEN: SCRAPE_TOKEN });
    await createRepo(t.app, 'metrics-local', { rclass: 'local', packageType: 'generic' });
  });
  afterAll(async () => {
    await t.close();
  });

  let text = '';
  async function scrape(): Promise<Map<string, PrometheusFamily>> {
    const res = await t.app.inject({ url: '/metrics', headers: ADMIN_BASIC });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    text = res.body;
    return new Map(parsePrometheusTextFormat(res.body).map((family) => [family.name, family]));
  }

  /** A histogram's observation count for a label set, read from the last scrape's text (0 when absent). */
  function countOf(name: string, labels: Record<string, string>): number {
    const line = text
      .split('\n')
      .find(
        (l) => l.startsWith(`${name}_count{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
      );
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
  }

  /** A sample's value by its labels (a counter or gauge), 0 when absent. */
  function valueOf(families: Map<string, PrometheusFamily>, name: string, labels: Record<string, string> = {}) {
    const sample = families
      .get(name)
      ?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
    return Number(sample?.value ?? 0);
  }

  it('answers the process metrics and every Arca family, named the Prometheus way', async () => {
    const families = await scrape();
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'http_request_duration_seconds',
      'arca_db_query_duration_seconds',
      'arca_db_pool_connections',
      'arca_repository_artifacts',
      'arca_repository_bytes',
      'arca_outbox_pending_events',
      'arca_outbox_dead_events',
      'arca_login_failures_total',
      'arca_locked_out_users',
      'arca_deployed_bytes_total',
      'arca_downloaded_bytes_total',
      'arca_webhook_deliveries_total',
      'arca_job_runs_total',
      'arca_job_duration_seconds',
    ]) {
      expect(families.has(name), name).toBe(true);
    }
    expect(families.get('http_request_duration_seconds')!.type).toBe('HISTOGRAM');
    expect(families.get('arca_deployed_bytes_total')!.type).toBe('COUNTER');
    expect(families.get('arca_repository_bytes')!.type).toBe('GAUGE');
    expect(families.get('arca_outbox_pending_events')!.metrics.map((m) => m.labels?.consumer)).toContain('webhooks');
  });

  it('has every metric the Grafana dashboard in docs/ charts', async () => {
    const families = await scrape();
    const dashboard = fs.readFileSync(new URL('../../../../../docs/grafana-dashboard.json', import.meta.url), 'utf8');
    const named = new Set(
      [...dashboard.matchAll(/\b((?:arca|http|process|nodejs)_[a-z0-9_]+)/g)].map((m) =>
        m[1]!.replace(/_(bucket|count|sum)$/, ''),
      ),
    );
    expect(named.size).toBeGreaterThan(10);
    for (const name of named) expect(families.has(name), name).toBe(true);
  });

  it('moves the counters after deploys, downloads and a failed sign-in', async () => {
    const before = await scrape();
    await put(t.app, '/artifactory/metrics-local/a/one.txt', 'hello');
    await put(t.app, '/artifactory/metrics-local/a/two.txt', 'metrics!');
    const download = await t.app.inject({ url: '/artifactory/metrics-local/a/one.txt', headers: ADMIN_BASIC });
    expect(download.body).toBe('hello');
    await login(t.app, 'admin', 'not-the-password');
    await expect
      .poll(async () => valueOf(await scrape(), 'arca_deployed_bytes_total', { package_type: 'generic' }))
      .toBe(valueOf(before, 'arca_deployed_bytes_total', { package_type: 'generic' }) + 13);
    await scrape();
    const deploys = { method: 'PUT', route: '/artifactory/*', status_code: '201' };
    const queries = { outcome: 'ok' };
    const deploysBefore = countOf('http_request_duration_seconds', deploys);
    const queriesBefore = countOf('arca_db_query_duration_seconds', queries);
    await put(t.app, '/artifactory/metrics-local/a/three.txt', 'more');
    const after = await scrape();
    expect(countOf('http_request_duration_seconds', deploys)).toBe(deploysBefore + 1);
    expect(countOf('arca_db_query_duration_seconds', queries)).toBeGreaterThan(queriesBefore);
    expect(valueOf(after, 'arca_downloaded_bytes_total', { package_type: 'generic' })).toBe(
      valueOf(before, 'arca_downloaded_bytes_total', { package_type: 'generic' }) + 5,
    );
    expect(valueOf(after, 'arca_login_failures_total')).toBe(valueOf(before, 'arca_login_failures_total') + 1);
    expect(valueOf(after, 'arca_repository_artifacts', { repository: 'metrics-local' })).toBe(3);
    expect(valueOf(after, 'arca_repository_bytes', { repository: 'metrics-local', package_type: 'generic' })).toBe(17);
  });

  it('is for administrators and the scrape token only', async () => {
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    const user = await createUser(t.app, 'metrics-reader');
    expect((await t.app.inject({ url: '/metrics', headers: user })).statusCode).toBe(403);
    const token = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${SCRAPE_TOKEN}` } });
    expect(token.statusCode).toBe(200);
    expect(token.body).toContain('arca_repository_bytes');
    const wrong = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${SCRAPE_TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
    // an administrator's console session opens it in the browser; a user's session does not
    const { cookie } = await login(t.app);
    const browsed = await t.app.inject({ url: '/metrics', headers: { cookie } });
    expect(browsed.statusCode).toBe(200);
    expect(browsed.body).toContain('arca_repository_bytes');
    const { cookie: userCookie } = await login(t.app, 'metrics-reader', 'metrics-reader-Passw0rd');
    expect((await t.app.inject({ url: '/metrics', headers: { cookie: userCookie } })).statusCode).toBe(403);
    // the session reads, nothing else outside the console
    const posted = await t.app.inject({ method: 'POST', url: '/metrics', headers: { cookie } });
    expect(posted.statusCode).toBe(404);
  });
});

describe('public metrics', () => {
  it('answers anyone with ARCA_METRICS_PUBLIC=true', async () => {
    const t = await startTestApp('sqlite', { ARCA_METRICS_PUBLIC: 'true' });
    try {
      const res = await t.app.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(parsePrometheusTextFormat(res.body).length).toBeGreaterThan(10);
    } finally {
      await t.close();
    }
  });
});
