/**
 * Posix path helpers for tests that read the app's own source through `import.meta.glob`
 * (`query: '?raw'`), whose keys are paths relative to the test file (the web tsconfig has no
 * Node types, so no node:fs / node:path).
 */

/** `a/b/../c/./d` → `a/c/d`; keeps leading `..` segments. */
export function normalizePath(path: string): string {
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '.' || seg === '') {
      if (out.length === 0 && seg === '.') out.push('.');
      continue;
    }
    if (seg === '..' && out.length > 0 && out[out.length - 1] !== '..' && out[out.length - 1] !== '.') out.pop();
    else if (seg === '..' && out[out.length - 1] === '.') out.splice(out.length - 1, 1, '..');
    else out.push(seg);
  }
  return out.join('/');
}

export function dirnameOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '.' : path.slice(0, i);
}

/** The file a relative specifier names among `files` (extension and index lookup), if any. */
export function resolveSpecifier(from: string, spec: string, files: ReadonlySet<string>): string | undefined {
  const base = normalizePath(`${dirnameOf(from)}/${spec}`);
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((c) => files.has(c));
}

/** Module specifiers of static imports, re-exports, side-effect imports and dynamic imports. */
export function importSpecifiers(source: string): string[] {
  const out: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) out.push(m[1]!);
  return out;
}
