/**
 * Features do not import each other's internals: a file under features/<a>/ may import from
 * its own feature and from features/shared/, never from features/<b>/. What two features share
 * moves to features/shared/ or components/. features/shared/ itself imports no feature.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FEATURES_DIR = dirname(fileURLToPath(import.meta.url));

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

/** The feature folder a path under features/ belongs to (undefined outside features/). */
function featureOf(absPath: string): string | undefined {
  const rel = relative(FEATURES_DIR, absPath);
  if (rel.startsWith('..') || rel === '') return undefined;
  return rel.split(sep)[0];
}

/** The imports of `file` (absolute) that cross into another feature. */
export function crossFeatureImports(file: string, source: string): string[] {
  const own = featureOf(file);
  return importSpecifiers(source).filter((spec) => {
    if (!spec.startsWith('.')) return false;
    const target = featureOf(resolve(dirname(file), spec));
    return target !== undefined && target !== own && target !== 'shared';
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

describe('feature boundaries', () => {
  it('no feature imports another feature (only features/shared)', () => {
    const files = sourceFiles(FEATURES_DIR);
    expect(files.length).toBeGreaterThan(20);
    const violations = files.flatMap((f) =>
      crossFeatureImports(f, readFileSync(f, 'utf8')).map((spec) => `${relative(FEATURES_DIR, f)} → ${spec}`),
    );
    expect(violations).toEqual([]);
  });

  it('catches a cross-feature import in any import form', () => {
    const file = join(FEATURES_DIR, 'projects', 'pages', 'ProjectsPage.tsx');
    const src = [
      "import { StatusTag } from '../../devices/components/StatusTag';",
      "import type { X } from '../../overview/api/queries';",
      "export { y } from '../../account/api/keys';",
      "import '../../entry/entry.css';",
      "const P = () => import('../../devices/pages/DeviceListPage');",
      // allowed: own feature, shared, app, components, packages
      "import { plantListParams } from '../api/list-params';",
      "import { StatusTag as S } from '../../shared/devices/components/StatusTag';",
      "import { api } from '../../../app/api';",
      "import { useListState } from '../../../components/list';",
      "import { Card } from 'antd';",
    ].join('\n');
    expect(crossFeatureImports(file, src)).toEqual([
      '../../devices/components/StatusTag',
      '../../overview/api/queries',
      '../../account/api/keys',
      '../../entry/entry.css',
      '../../devices/pages/DeviceListPage',
    ]);
  });

  it('features/shared imports no feature', () => {
    const file = join(FEATURES_DIR, 'shared', 'devices', 'components', 'DeviceBrowser.tsx');
    expect(crossFeatureImports(file, "import { X } from '../../../projects/api/list-params';")).toEqual([
      '../../../projects/api/list-params',
    ]);
  });
});
