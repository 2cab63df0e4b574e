import { beforeEach, describe, expect, it } from 'vitest';
import { permissionLists } from '@sunwatch/protocol';
import { accessFor } from '../../app/access';
import { areaById } from '../../app/routes';
import { guideNodes, guideSeen, markGuideSeen, nodePath } from './nav';

describe('personal navigation', () => {
  beforeEach(() => localStorage.clear());

  it('finds the personal page, the guide and the skin page where the area has them', () => {
    const owner = accessFor({ role: 0 });
    expect(nodePath(areaById('generalNew'), 'personalBasic', owner)).toBe('/generalNew/personalBasic');
    expect(nodePath(areaById('generalNew'), 'generalintro', owner)).toBe('/generalNew/generalintro');
    expect(nodePath(areaById('general'), 'personalBasic', owner)).toBe('/general/setting/personalBasic');
    expect(nodePath(areaById('general'), 'generalintro', owner)).toBeUndefined();
    const dealer = accessFor({ role: 2, permissions: permissionLists([]) });
    expect(nodePath(areaById('admin'), 'customize', accessFor({ role: 1 }))).toBe('/admin/setting/customize');
    expect(nodePath(areaById('admin'), 'personalBasic', dealer)).toBe('/admin/setting/personalBasic');
  });

  it('lists the pages the guide walks through, without the guide itself', () => {
    const paths = guideNodes(areaById('generalNew'), accessFor({ role: 0 })).map((n) => n.path);
    expect(paths).toContain('home');
    expect(paths).toContain('personalBasic');
    expect(paths).not.toContain('generalintro');
  });

  it('remembers per account that the guide was offered', () => {
    expect(guideSeen('anna')).toBe(false);
    markGuideSeen('anna');
    expect(guideSeen('anna')).toBe(true);
    expect(guideSeen('ben')).toBe(false);
  });
});
