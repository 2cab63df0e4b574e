import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The import graph of apps/server/src between its folders: each `modules/<domain>` and every other
 * top folder (`access`, `http`, `db`, `shared`, …) is one node. A cycle between two nodes fails (a
 * folder that imports another must not be imported back by it, directly or through others). Every
 * relative import counts, `import type` included: a type-only cycle still ties two folders together.
 * The top-level files (`context.ts`, `create-context.ts`, `app.ts`, `config.ts`, …) are the
 * composition root that wires the folders together; they are not nodes.
 */
const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** The node of a file: `modules/<domain>` or the top folder; undefined for the composition root. */
export function nodeOf(file: string): string | undefined {
  const parts = relative(SRC, file).split(/[\\/]/);
  if (parts.length === 1) return undefined;
  if (parts[0] === 'modules' && parts.length > 2) return `modules/${parts[1]}`;
  return parts[0];
}

const IMPORT_RE = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2];
    if (!spec?.startsWith('.')) continue;
    out.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
  }
  return out;
}

/** Edges between nodes, with one file-level example per edge. */
export function buildGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SRC)) {
    const from = nodeOf(file);
    if (from === undefined) continue;
    for (const target of importsOf(file)) {
      const to = nodeOf(target);
      if (to === undefined || to === from) continue;
      let edges = graph.get(from);
      if (!edges) graph.set(from, (edges = new Map()));
      if (!edges.has(to)) edges.set(to, `${relative(SRC, file)} → ${relative(SRC, target)}`);
    }
  }
  return graph;
}

/** Strongly connected components with more than one node (Tarjan). */
export function cycles(graph: Map<string, Map<string, string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const nodes = new Set<string>([...graph.keys(), ...[...graph.values()].flatMap((e) => [...e.keys()])]);
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!idx.has(v)) visit(v);
  return out;
}

describe('import graph of apps/server/src', () => {
  it('finds the modules (the regex sees the imports)', () => {
    const graph = buildGraph();
    expect(graph.get('modules/plants')?.has('modules/devices')).toBe(true);
    expect(graph.get('http')?.size).toBeGreaterThan(0);
  });

  it('detects a cycle when there is one', () => {
    const g = new Map([
      ['a', new Map([['b', 'a.ts → b.ts']])],
      ['b', new Map([['c', 'b.ts → c.ts']])],
      ['c', new Map([['a', 'c.ts → a.ts']])],
    ]);
    expect(cycles(g)).toEqual([['a', 'b', 'c']]);
  });

  it('src imports nothing outside src (test factories, bench, e2e stay out of the server)', () => {
    const outside = sourceFiles(SRC).flatMap((file) =>
      importsOf(file)
        .filter((target) => relative(SRC, target).startsWith('..'))
        .map((target) => `${relative(SRC, file)} → ${relative(SRC, target)}`),
    );
    expect(outside).toEqual([]);
  });

  it('has no cycle between folders', () => {
    const graph = buildGraph();
    const found = cycles(graph).map((comp) =>
      comp.flatMap((a) => comp.filter((b) => graph.get(a)?.has(b)).map((b) => `  ${graph.get(a)!.get(b)!}`)).join('\n'),
    );
    expect(found, `cycles:\n${found.join('\n---\n')}`).toEqual([]);
  });
});
