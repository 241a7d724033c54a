import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  base: '/ui/',
  plugins: [react()],
  resolve: {
    alias: { '@arca/contracts': path.resolve(import.meta.dirname, '../contracts/src/index.ts') },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // zod's builders have no side effects: schemas a chunk defines but never uses (the contracts
      // modules define many) drop out, and with them zod itself from the first load
      treeshake: { manualPureFunctions: ['z'] },
    },
  },
  server: {
    proxy: { '/ui/api': 'http://localhost:8082', '/artifactory': 'http://localhost:8082' },
  },
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    testTimeout: 20_000,
    // as many at a time as the server lane beside it (see vitest.config.ts)
    maxWorkers: Number(process.env.ARCA_TEST_WORKERS) || 1,
  },
});
