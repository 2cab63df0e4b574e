/* global process, console, performance */
// Compiles the server for `node` (docs/operations.md, "Compiled server"): one ESM bundle of
// apps/server/src/main.ts with the workspace sources it imports (packages/protocol,
// apps/simulator) transpiled in; every npm package stays an external import, resolved from
// node_modules at run time (native modules such as better-sqlite3 cannot be bundled).
//
//   node scripts/build.mjs            build dist/main.js
//   node scripts/build.mjs --if-stale build only when dist/main.js is missing or older than a source
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(serverDir, '../..');
export const OUT_FILE = path.join(serverDir, 'dist', 'main.js');
/** Folders whose sources end up in the bundle (and package.json files whose dependencies it names). */
const SOURCE_DIRS = ['apps/server/src', 'packages/protocol/src', 'apps/simulator/src'].map((d) =>
  path.join(repoRoot, d),
);
const SOURCE_FILES = [
  path.join(serverDir, 'package.json'),
  path.join(serverDir, 'scripts', 'build.mjs'),
  path.join(repoRoot, 'package-lock.json'),
];

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (entry.isFile()) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

/** Whether dist/main.js is missing or older than any source it is built from. */
export function isStale() {
  if (!fs.existsSync(OUT_FILE)) return true;
  const built = fs.statSync(OUT_FILE).mtimeMs;
  const files = SOURCE_FILES.filter((f) => fs.existsSync(f)).map((f) => fs.statSync(f).mtimeMs);
  return Math.max(...files, ...SOURCE_DIRS.map(newestMtime)) > built;
}

/** Bare imports outside the workspace stay imports; `@sunwatch/*` is bundled from its sources. */
const externalPackages = {
  name: 'external-npm-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@sunwatch/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function build() {
  const started = performance.now();
  const esbuild = await import('esbuild');
  const tmp = `${OUT_FILE}.${process.pid}.tmp`;
  await esbuild.build({
    entryPoints: [path.join(serverDir, 'src', 'main.ts')],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: 'linked',
    plugins: [externalPackages],
    logLevel: 'warning',
    legalComments: 'none',
  });
  // Atomic: a server starting at the same moment never reads a half-written bundle.
  fs.renameSync(tmp, OUT_FILE);
  fs.renameSync(`${tmp}.map`, `${OUT_FILE}.map`);
  const kb = Math.round(fs.statSync(OUT_FILE).size / 1024);
  console.log(`Built ${path.relative(repoRoot, OUT_FILE)} (${kb} KB) in ${Math.round(performance.now() - started)} ms`);
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const ifStale = process.argv.includes('--if-stale');
  if (!ifStale || isStale()) {
    build().catch((e) => {
      console.error(e);
      process.exit(1);
    });
  }
}
