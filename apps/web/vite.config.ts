import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const backend = 'http://127.0.0.1:8080';

/**
 * Chunking (issue 8, first load). Rolldown splits by dynamic import: every page is its own chunk
 * and carries the antd components, charts (echarts) and maps (leaflet, world-atlas) it uses;
 * modules shared by several pages land in shared chunks. Only two groups are forced:
 * - `vendor-react`: React, its router, query and i18n runtime — every route needs them, so one
 *   long-cached chunk;
 * - `lang-<locale>`: all texts of one language (the web's namespaces and the protocol's
 *   errors/rules, gathered by src/i18n/packs/<locale>.ts) — loaded on demand by i18n/index.ts,
 *   one request per language.
 * antd is NOT grouped: one antd chunk would make every page download every component.
 */
export function chunkGroup(id: string): string | null {
  const lang =
    /[\\/](?:locales|i18n)[\\/]([a-z]{2}_[A-Z]{2})[\\/][^\\/]+\.json$/.exec(id) ??
    /[\\/]i18n[\\/]packs[\\/]([a-z]{2}_[A-Z]{2})\.ts$/.exec(id);
  if (lang) return `lang-${lang[1]}`;
  if (/node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|i18next|react-i18next)[\\/]/.test(id)) {
    return 'vendor-react';
  }
  return null;
}

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of the build, once, at build
 * time; the server sends them to clients that accept them (apps/server/src/http/spa.ts,
 * `preCompressed`). Checked end to end by e2e/web-budget.spec.ts (no uncompressed asset).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'sunwatch-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((f) => /\.(js|css|html|json|svg)$/.test(f));
      await Promise.all(
        files.map(async (f) => {
          const file = path.join(outDir, f);
          const data = await readFile(file);
          if (data.length < 512) return;
          const [gz, br] = await Promise.all([
            gzip(data, { level: 9 }),
            brotli(data, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
              },
            }),
          ]);
          await Promise.all([writeFile(`${file}.gz`, gz), writeFile(`${file}.br`, br)]);
        }),
      );
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), precompress()],
  server: {
    proxy: {
      '/public': { target: backend, changeOrigin: true },
      '/remote': { target: backend, changeOrigin: true },
      '/upg': { target: backend, changeOrigin: true },
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: (id: string) => chunkGroup(id) }],
        },
      },
    },
  },
});
