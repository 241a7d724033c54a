import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * How the parts of the server get what they need. A format reaches data, binaries and the other
 * features only through the artifacts feature's door (`repoContent` / `systemContent`): the lint
 * rules in `eslint.config.js` refuse the side doors, and this file plants each kind to show that
 * they do. What a feature makes is handed over at registration (`registerSsh` answers its server,
 * `features/index.ts` gives it to the routes as their options, and to tests as `FeatureServices`);
 * only what the whole server shares is a decoration of the Fastify instance. The files that add
 * one are listed in AUGMENTING, a list that may only shrink.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SRC = path.join(ROOT, 'packages/server/src');

/** The files that augment `FastifyInstance` today (the request's own context aside). */
const AUGMENTING = [
  'core/base-url.ts',
  'core/context.plugin.ts',
  'core/metrics.ts',
  'core/principals.ts',
  'core/rest-bodies.ts',
  'features/artifacts/artifacts.formats.ts',
  'features/artifacts/artifacts.ports.ts',
  'features/auth/auth.plugin.ts',
  'features/license/license.service.ts',
  'formats/index.ts',
];

function augmentingFiles(): string[] {
  return (fs.readdirSync(SRC, { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.includes('.test.') && !file.startsWith('test/'))
    .filter((file) => /declare module 'fastify'/.test(fs.readFileSync(path.join(SRC, file), 'utf8')))
    .sort();
}

describe("the server's dependencies", () => {
  it('adds no new decoration of the Fastify instance, and lists none that went', () => {
    const found = augmentingFiles();
    for (const file of found) {
      expect(AUGMENTING, `${file} augments FastifyInstance: hand what it provides over at registration`).toContain(
        file,
      );
    }
    for (const file of AUGMENTING) {
      expect(found, `${file} no longer augments FastifyInstance: take it off AUGMENTING`).toContain(file);
    }
  });

  it('refuses a format that reads the signing keys, the database or the permissions past the door', async () => {
    const eslint = new ESLint({ cwd: ROOT });
    const planted = [
      "import type { FastifyInstance, FastifyRequest } from 'fastify';",
      "import { isAllowed } from '../../core/permissions.js';",
      '',
      'export async function planted(app: FastifyInstance, request: FastifyRequest) {',
      "  const signer = await app.signing.signerFor('debian-local');",
      "  const open = await isAllowed(request.server.db, request.principal, 'read', 'debian-local', '');",
      '  return { signer, open };',
      '}',
      '',
    ].join('\n');
    const [result] = await eslint.lintText(planted, {
      filePath: path.join(SRC, 'formats/debian/planted.ts'),
    });
    const found = result!.messages.map((m) => `${m.line}:${m.ruleId}`);
    expect(found).toEqual(['2:no-restricted-imports', '5:no-restricted-syntax', '6:no-restricted-syntax']);
    expect(result!.messages[1]!.message).toMatch(
      /^A format reaches data, binaries and other features through the door/,
    );

    // the same through the door: nothing to report
    const door = [
      "import type { FastifyRequest } from 'fastify';",
      "import { repoContent } from '../../features/artifacts/index.js';",
      '',
      'export async function planted(request: FastifyRequest) {',
      '  const content = repoContent(request);',
      "  const repo = await content.repository('debian-local');",
      '  return { signer: await content.signer(repo), open: await content.mayRead(repo.key, "") };',
      '}',
      '',
    ].join('\n');
    const [clean] = await eslint.lintText(door, { filePath: path.join(SRC, 'formats/debian/planted.ts') });
    expect(clean!.messages).toEqual([]);
  });
});
