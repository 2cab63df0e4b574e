import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    testTimeout: 20000,
    // Files share one module graph per worker (antd, i18n with all languages, the app): imported
    // once per worker instead of once per file. Tests must not rely on a fresh module state.
    // ~230 s → ~70 s on the 2-core machine (docs/decisions.md, "CI time").
    isolate: false,
    // `.only` fails the run on CI (see the root vitest.config.ts)
    allowOnly: !process.env.CI,
  },
});
