import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * How the parts of the server get what they need. A format reaches data, binaries and the other
 * features only through the artifacts feature's door (`repoContent` / `systemContent`): the lint
 * rules in `eslint.config.js` refuse the side doors, and this file plants each kind to show that
 * they do. The server's shared parts reach a feature as decorations of the Fastify instance; the
 * files that add one are listed in AUGMENTING, a list that may only shrink: a new dependency is
 * handed over at registration (as `registerSigning` hands its keys to the door's ports).
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
  'features/artifacts/artifacts.classes.ts',
  'features/artifacts/artifacts.formats.ts',
  'features/artifacts/artifacts.jobs.ts',
  'features/artifacts/artifacts.ports.ts',
  'features/auth/auth.plugin.ts',
  'features/license/license.service.ts',
  'features/packages/packages.indexer.ts',
  'features/retention/retention.jobs.ts',
  'features/signing/index.ts',
  'features/ssh/index.ts',
  'features/support/support.routes.ts',
  'features/webhooks/webhooks.delivery.ts',
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
