import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import {
  CORE_NAMESPACES,
  PROTOCOL_NAMESPACES,
  namespacesIn,
  parseTextPath,
  textsPrelude,
} from './src/i18n/namespaces.ts';

const backend = 'http://127.0.0.1:8080';

/**
 * Chunking (issue 8, first load). Rolldown splits by dynamic import: every page is its own chunk
 * and carries the antd components, charts (echarts) and maps (leaflet, world-atlas) it uses;
 * modules shared by several pages land in shared chunks. Only two groups are forced:
 * - `vendor-react`: React, its router, query and i18n runtime — every route needs them, so one
 *   long-cached chunk;
 * - `lang-<locale>`: the core texts of one language (the namespaces of `CORE_NAMESPACES`, with the
 *   protocol's errors/rules) and the list of its text files (`src/i18n/manifests`), loaded before
 *   the first render;
 * - `txt-<locale>-<ns>`: every other text file on its own, loaded with the pages that use it
 *   (`textsOnDemand` below).
 * antd is NOT grouped: one antd chunk would make every page download every component.
 */
export function chunkGroup(id: string): string | null {
  const text = /[\\/](?:locales|i18n)[\\/]([a-z]{2}_[A-Z]{2})[\\/][^\\/]+\.json$/.test(id)
    ? parseTextPath(id)
    : undefined;
  if (text) return CORE_NAMESPACES.includes(text.ns) ? `lang-${text.locale}` : `txt-${text.locale}-${text.ns}`;
  // a language's list of text files travels with its core texts (both are fetched before the first render)
  const manifest = /[\\/]i18n[\\/]manifests[\\/]([a-z]{2}_[A-Z]{2})\.ts$/.exec(id);
  if (manifest) return `lang-${manifest[1]}`;
  // Vite's preload helper runs every lazy import: with the runtime every page loads (left to
  // itself, the bundler put it in the first language's chunk, which then every page fetched).
  if (id === '\0vite/preload-helper.js') return 'vendor-react';
  if (/node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|i18next|react-i18next)[\\/]/.test(id)) {
    return 'vendor-react';
  }
  return null;
}

const LOCALES_DIR = fileURLToPath(new URL('./src/i18n/locales/en_US', import.meta.url));

/**
 * Texts with their pages (issue 8/11, first load; the convention of src/i18n/namespaces.ts). While
 * transforming, records which namespaces each of the app's modules names; when rendering, puts one
 * `await` of those namespaces (minus the core ones) at the top of every chunk that is not loaded
 * with the entry, so a lazy page resolves only with its texts in i18next: no flash of raw keys,
 * nothing to declare, a new namespace file works as it is. A chunk loaded with the entry may name
 * core namespaces only (the build fails otherwise: main.tsx awaits just those before rendering).
 */
export function textsOnDemand(): Plugin {
  let known: string[] = [];
  const used = new Map<string, string[]>();
  return {
    name: 'sunwatch-texts-on-demand',
    apply: 'build',
    enforce: 'pre',
    async buildStart() {
      const files = await readdir(LOCALES_DIR);
      known = [...files.filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)), ...PROTOCOL_NAMESPACES];
      used.clear();
    },
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (file.includes('node_modules') || !/\.[cm]?[jt]sx?$/.test(file)) return null;
      const ns = namespacesIn(code, known);
      if (ns.length) used.set(file, ns);
      return null;
    },
    renderChunk(code, chunk, _options, meta) {
      // chunks evaluated with the entry, before main.tsx could load anything
      const initial = new Set<string>();
      const visit = (fileName: string) => {
        if (initial.has(fileName)) return;
        initial.add(fileName);
        for (const imp of meta.chunks[fileName]?.imports ?? []) visit(imp);
      };
      for (const c of Object.values(meta.chunks)) if (c.isEntry) visit(c.fileName);
      const names = [...new Set(chunk.moduleIds.flatMap((id) => used.get(id.split('?')[0]!) ?? []))].sort();
      if (initial.has(chunk.fileName)) {
        const lazy = names.filter((ns) => !CORE_NAMESPACES.includes(ns));
        if (lazy.length) {
          const where = chunk.moduleIds.filter((id) => (used.get(id) ?? []).some((ns) => lazy.includes(ns)));
          // A warning, not an error: the route table names the sub-pages' titles (devices, plants), which only
          // those pages render, with their own chunks' texts. A key of such a namespace rendered by the shell
          // would show raw: the loader reports it as an error in the console (browser tests fail on it).
          this.warn(
            `chunk ${chunk.fileName}, loaded with the entry, names the namespaces ${lazy.join(', ')} (in ${where.join(', ')}); ` +
              'they are not loaded before the first render: a key of theirs rendered by the shell needs its module ' +
              'loaded lazily, or the namespace in CORE_NAMESPACES (src/i18n/namespaces.ts)',
          );
        }
        return null;
      }
      const prelude = textsPrelude(names);
      return prelude ? { code: prelude + code, map: null } : null;
    },
  };
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
    async closeBundle(error?: Error) {
      // a failed build (no output): let its own error show
      const listed = error ? undefined : await readdir(outDir, { recursive: true }).catch(() => undefined);
      if (!listed) return;
      const files = listed.filter((f) => /\.(js|css|html|json|svg)$/.test(f));
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
  plugins: [react(), textsOnDemand(), precompress()],
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
    // A text chunk needs nothing but the tiny runtime the entry already loaded: no preload list per
    // text file (it kept ~200 file names and wrappers in the entry chunk, ~3.5 KB gzipped).
    modulePreload: {
      resolveDependencies: (filename, deps) => (/(^|\/)(txt|lang)-[a-z]{2}_[A-Z]{2}/.test(filename) ? [] : deps),
    },
    rolldownOptions: {
      // The protocol's errors/rules texts are imported statically by the protocol's own i18n module
      // (the server's messages; tree-shaken out of the web) and on demand by a language's manifest,
      // which shares the language's core chunk with them: the "ineffective dynamic import" notice
      // says just that. Any other such notice still shows.
      onLog(level, log, handler) {
        if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' && /protocol[\\/]src[\\/]i18n[\\/]/.test(log.message)) return;
        handler(level, log);
      },
      output: {
        codeSplitting: {
          // vendor-react first: a text manifest's chunk would otherwise take the preload helper
          // along as its dependency (groups include their modules' dependencies)
          groups: [
            { name: 'vendor-react', test: (id: string) => chunkGroup(id) === 'vendor-react', priority: 1 },
            { name: (id: string) => chunkGroup(id) },
          ],
        },
      },
    },
  },
});
