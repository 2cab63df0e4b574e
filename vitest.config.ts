import { defineConfig } from 'vitest/config';

// `.only` fails the run on CI instead of silently skipping the other tests (eslint forbids it
// everywhere, see eslint.config.js). allowOnly is a per-project option: every project sets it.
const allowOnly = !process.env.CI;

// Unit and integration tests of every workspace except the browser flows (e2e/ has its own config).
export default defineConfig({
  test: {
    allowOnly,
    // Two files at a time (vitest's default is one less than the cores: one on a 2-core CI
    // machine). Most integration files wait on PostgreSQL, MQTT or timers rather than compute.
    maxWorkers: Math.max(1, Number(process.env.UNIT_WORKERS ?? 2) || 2),
    projects: [
      { test: { name: 'protocol', root: 'packages/protocol', include: ['src/**/*.test.ts'], allowOnly } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 30000,
          hookTimeout: 60000,
          // One module graph per worker, not per file (docs/decisions.md, "CI time"): every file
          // still opens its own databases, broker and servers; only imports are shared. It cut
          // the server project from ~300 s to ~190 s on the 2-core machine.
          isolate: false,
          allowOnly,
        },
      },
      { test: { name: 'simulator', root: 'apps/simulator', include: ['src/**/*.test.ts'], allowOnly } },
      'apps/web/vitest.config.ts',
    ],
  },
});
