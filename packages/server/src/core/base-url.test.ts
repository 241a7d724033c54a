import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, createRepo, startTestApp, type TestApp } from '../test/harness.js';
import { publishBody } from '../test/npm.js';

/** Links and redirects in answers come from ARCA_BASE_URL when it is set, never from the request's Host. */
describe('links behind a configured base URL', () => {
  let t: TestApp;
  const evil = { ...ADMIN_BASIC, host: 'evil.example' };
  beforeAll(async () => {
    t = await startTestApp('sqlite', { ARCA_BASE_URL: 'https://arca.example.com/' });
    await createRepo(t.app, 'npm-local', { rclass: 'local', packageType: 'npm' });
    await createRepo(t.app, 'libs', { rclass: 'local' });
    await createRepo(t.app, 'docker-local', { rclass: 'local', packageType: 'docker' });
    const { body } = await publishBody('demo', '1.0.0');
    const published = await t.app.inject({
      method: 'PUT',
      url: '/artifactory/api/npm/npm-local/demo',
      headers: { ...ADMIN_BASIC, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(published.statusCode).toBe(201);
  });
  afterAll(() => t.close());

  it('answers package links, REST links and the registry challenge with the configured address', async () => {
    const packument = await t.app.inject({ url: '/artifactory/api/npm/npm-local/demo', headers: evil });
    expect(packument.json().versions['1.0.0'].dist.tarball).toBe(
      'https://arca.example.com/artifactory/api/npm/npm-local/demo/-/demo-1.0.0.tgz',
    );
    const setMeUp = await t.app.inject({ url: '/ui/api/v1/ui/setMeUp', headers: evil });
    expect(setMeUp.json()).toEqual({ baseUrl: 'https://arca.example.com' });
    const users = await t.app.inject({ url: '/artifactory/api/security/users', headers: evil });
    expect(JSON.stringify(users.json())).not.toContain('evil.example');
    expect((users.json() as { uri: string }[])[0]!.uri).toMatch(/^https:\/\/arca\.example\.com\/artifactory\//);
    const challenge = await t.app.inject({ url: '/v2/', headers: { host: 'evil.example' } });
    expect(challenge.headers['www-authenticate']).toBe(
      'Bearer realm="https://arca.example.com/v2/token",service="arca.example.com"',
    );
    const login = await t.app.inject({
      method: 'POST',
      url: '/artifactory/api/npm/npm-local/-/v1/login',
      headers: { host: 'evil.example', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(login.json().loginUrl).toMatch(/^https:\/\/arca\.example\.com\/ui\/web-login\//);
    expect(login.json().doneUrl).toMatch(
      /^https:\/\/arca\.example\.com\/artifactory\/api\/npm\/npm-local\/-\/v1\/done/,
    );
  });
});
