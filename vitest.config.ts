import path from 'node:path';
import { defineConfig } from 'vitest/config';

const contracts = path.resolve(import.meta.dirname, 'packages/contracts/src/index.ts');
const alias = { '@arca/contracts': contracts };
// expect.poll waits for what a server or a page does in its own time: on two loaded cores that can
// take well over Vitest's default second, so the wait ends on the condition, not on a short clock
const expectations = { poll: { timeout: 15_000 } };
// `npm test` runs the server and browser lanes side by side (scripts/test.ts); each lane's files
// run in this many workers at a time. Most of a test's time is spent waiting on another process
// (a server, a client, Chromium), so two per lane keep both cores busy on a two-core machine.
const workers = Number(process.env.ARCA_TEST_WORKERS) || 2;

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'contracts',
          include: ['packages/contracts/src/**/*.test.ts'],
          environment: 'node',
          maxWorkers: workers,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts'],
          environment: 'node',
          maxWorkers: workers,
          testTimeout: 60_000,
          hookTimeout: 120_000,
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
          maxWorkers: Number(process.env.ARCA_TEST_BROWSER_WORKERS) || workers,
          // after the other projects when one Vitest run takes them all (npm test gives it a lane of its own)
          sequence: { groupOrder: 1 },
          testTimeout: 180_000,
          hookTimeout: 180_000,
          expect: expectations,
        },
      },
    ],
  },
});
