import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.js';
import { FORMATS, documented } from './index.js';

type Operation = { summary?: string; tags?: string[]; parameters?: { in: string; name: string }[] };

describe("the formats' routes", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('are each in the OpenAPI document under their format, with a summary and their parameters', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    const served = FORMATS.filter((f) => f.routes).map((f) => f.types[0]!);
    const byFormat = new Map<string, { path: string; method: string; operation: Operation }[]>();
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(methods)) {
        const tag = operation.tags?.find((name) => served.includes(name));
        if (tag) byFormat.set(tag, [...(byFormat.get(tag) ?? []), { path, method, operation }]);
      }
    // every format that has routes has them documented; 9 formats, 48 operations at this writing
    expect([...byFormat.keys()].sort()).toEqual([...served].sort());
    const all = [...byFormat.values()].flat();
    expect(all.length).toBeGreaterThanOrEqual(48);
    for (const { path, method, operation } of all) {
      expect(operation.summary, `${method} ${path}`).toMatch(/\w{3,}/);
      // each parameter of the address is declared
      const named = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared.sort(), `${method} ${path}`).toEqual(named.sort());
    }
  });

  it('refuse to start when one declares no schema', async () => {
    const app = Fastify();
    const start = async () => {
      await app.register(
        documented('probe', async (scope) => {
          scope.get('/probe/with', { schema: { summary: 'A documented probe' } }, async () => 'ok');
          scope.get('/probe/without', async () => 'no schema');
        }),
      );
      await app.ready();
    };
    await expect(start()).rejects.toThrow('the probe route GET /probe/without declares no schema with a summary');
    await app.close().catch(() => undefined);
  });
});
