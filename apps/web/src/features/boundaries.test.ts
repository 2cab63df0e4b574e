/**
 * Features do not import each other's internals: a file under features/<a>/ may import from
 * its own feature and from features/shared/, never from features/<b>/. What two features share
 * moves to features/shared/ or components/. features/shared/ itself imports no feature.
 */
import { describe, expect, it } from 'vitest';
import { importSpecifiers, normalizePath } from '../test/source-paths';

/** Every source file under features/, by path relative to this folder (`./devices/…`). */
const SOURCES = import.meta.glob<string>(['./**/*.ts', './**/*.tsx'], { query: '?raw', import: 'default', eager: true });

/** The feature folder of a path relative to features/ (undefined outside features/). */
function featureOf(path: string): string | undefined {
  const segs = normalizePath(path).split('/');
  if (segs[0] !== '.' || segs.length < 3) return undefined;
  return segs[1];
}

/** The imports of `file` (`./<feature>/…`) that cross into another feature. */
export function crossFeatureImports(file: string, source: string): string[] {
  const own = featureOf(file);
  const dir = file.slice(0, file.lastIndexOf('/'));
  return importSpecifiers(source).filter((spec) => {
    if (!spec.startsWith('.')) return false;
    const target = featureOf(`${dir}/${spec}`);
    return target !== undefined && target !== own && target !== 'shared';
  });
}

describe('feature boundaries', () => {
  it('no feature imports another feature (only features/shared)', () => {
    const files = Object.entries(SOURCES);
    expect(files.length).toBeGreaterThan(20);
    const violations = files.flatMap(([f, src]) => crossFeatureImports(f, src).map((spec) => `${f} → ${spec}`));
    expect(violations).toEqual([]);
  });

  it('catches a cross-feature import in any import form', () => {
    const file = './projects/pages/ProjectsPage.tsx';
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
    const file = './shared/devices/components/DeviceBrowser.tsx';
    expect(crossFeatureImports(file, "import { X } from '../../../projects/api/list-params';")).toEqual([
      '../../../projects/api/list-params',
    ]);
  });
});
