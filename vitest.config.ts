import { defineConfig } from 'vitest/config';

// Unit and integration tests of every workspace except the browser flows (e2e/ has its own config).
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'protocol', root: 'packages/protocol', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
      { test: { name: 'simulator', root: 'apps/simulator', include: ['src/**/*.test.ts'] } },
      'apps/web/vitest.config.ts',
    ],
  },
});
