import { defineConfig } from 'vitest/config';

// Browser flows: each spec file starts the real server and a headless system Chromium.
// Files run one after another (CI machines have 2 cores; a browser per worker would thrash them).
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    environment: 'node',
    include: ['*.spec.ts'],
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 90_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    // Network flakiness is not expected on loopback; one retry absorbs a slow CI tick.
    retry: 0,
    // `.only` fails the run on CI instead of silently skipping the other tests (eslint forbids it too).
    allowOnly: !process.env.CI,
  },
});
