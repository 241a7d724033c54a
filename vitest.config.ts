import path from 'node:path';
import { defineConfig } from 'vitest/config';

const contracts = path.resolve(import.meta.dirname, 'packages/contracts/src/index.ts');
const alias = { '@arca/contracts': contracts };
// expect.poll waits for what a server or a page does in its own time: on two loaded cores that can
// take well over Vitest's default second, so the wait ends on the condition, not on a short clock
const expectations = { poll: { timeout: 15_000 } };

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'], environment: 'node' },
      },
      {
        resolve: { alias },
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          expect: expectations,
        },
      },
      './packages/web/vite.config.ts',
      {
        resolve: { alias },
        test: {
          name: 'e2e',
          include: ['packages/web/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect: expectations,
          fileParallelism: false,
        },
      },
    ],
  },
});
