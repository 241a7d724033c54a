import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { CLIENT_FILES } from './scripts/test-projects.ts';

const contracts = path.resolve(import.meta.dirname, 'packages/contracts/src/index.ts');
const alias = { '@arca/contracts': contracts };
// expect.poll waits for what a server or a page does in its own time: on two loaded cores that can
// take well over Vitest's default second, so the wait ends on the condition, not on a short clock
const expectations = { poll: { timeout: 15_000 } };
// `npm test` runs the server and browser lanes side by side (scripts/test.ts), a file at a time
// each by default: on two cores that keeps both busy (a browser file's Chromium, server and
// clients take about one core; so does a server file). More cores: ARCA_TEST_WORKERS files per lane.
const workers = Number(process.env.ARCA_TEST_WORKERS) || 1;
// end-to-end timeouts stop a hung test, they measure nothing: a browser file on a loaded machine can take minutes
const endToEnd = { testTimeout: 300_000, hookTimeout: 300_000, expect: expectations };

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
          // the files of a worker share its modules: the server is imported once per worker, not
          // once per file (docs/testing.md: what a file must leave behind for that)
          isolate: false,
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
          exclude: [...configDefaults.exclude, ...CLIENT_FILES],
          environment: 'node',
          maxWorkers: Number(process.env.ARCA_TEST_BROWSER_WORKERS) || workers,
          // after the other projects when one Vitest run takes them all (npm test gives it a lane of its own)
          sequence: { groupOrder: 1 },
          ...endToEnd,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'clients',
          include: CLIENT_FILES,
          environment: 'node',
          maxWorkers: workers,
          sequence: { groupOrder: 1 },
          ...endToEnd,
        },
      },
    ],
  },
});
