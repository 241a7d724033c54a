import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XHR, login, messages, startTestApp, type TestApp } from '../../test/harness.js';

describe('guides and features', () => {
  let t: TestApp;
  let tested: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    tested = await startTestApp('sqlite', { ARCA_TESTED_FEATURES: 'true', ARCA_ONBOARDING: 'false' });
  });
  afterAll(async () => {
    await t.close();
    await tested.close();
  });

  it('serves the project’s guides to signed-in users, each as Markdown', async () => {
    const headers = { ...XHR, cookie: (await login(t.app)).cookie };
    const list = await t.app.inject({ url: '/ui/api/v1/ui/docs', headers });
    expect(list.json()).toEqual([
      expect.objectContaining({ id: 'readme', title: 'Arca guide', available: true }),
      expect.objectContaining({ id: 'deploy', title: 'Deployment guide', available: true }),
      expect.objectContaining({ id: 'decisions', title: 'Design decisions', available: true }),
    ]);
    const readme = await t.app.inject({ url: '/ui/api/v1/ui/docs/readme', headers });
    expect(readme.json().markdown).toMatch(/^# Arca\n/);
    const unknown = await t.app.inject({ url: '/ui/api/v1/ui/docs/passwords', headers });
    expect([unknown.statusCode, messages(unknown)[0]]).toEqual([
      404,
      'This guide is not installed with this deployment.',
    ]);
    expect((await t.app.inject({ url: '/ui/api/v1/ui/docs/readme' })).statusCode).toBe(401);
  });

  it('offers quick setup always, onboarding unless switched off, the demo playground only when switched on', async () => {
    const features = async (app: TestApp) =>
      (await app.app.inject({ url: '/ui/api/v1/system/featuresConfig' })).json().features;
    expect(await features(t)).toMatchObject({ quickSetup: true, onboarding: true, testedFeatures: false });
    expect(await features(tested)).toMatchObject({ quickSetup: true, onboarding: false, testedFeatures: true });
    const headers = { ...XHR, cookie: (await login(tested.app)).cookie };
    const state = await tested.app.inject({ url: '/ui/api/v1/system/onboarding', headers });
    expect(state.json()).toMatchObject({ needsOnboarding: false, repositoryCount: 0 });
  });
});
