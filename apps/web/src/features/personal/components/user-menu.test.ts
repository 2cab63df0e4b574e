import { describe, expect, it } from 'vitest';
import { accessFor } from '../../../app/access';
import { areaById } from '../../../app/routes';
import { userMenuEntries } from './user-menu';

describe('header user menu', () => {
  it('gives an owner personal info, bindings, the guide, the manual; the mall only when configured', () => {
    const e = userMenuEntries(areaById('generalNew'), accessFor({ role: 0 }), undefined);
    expect(e.map((x) => x.key)).toEqual(['personal', 'bindEmail', 'bindPhone', 'guide', 'manual']);
    expect(e[0]).toEqual({ key: 'personal', to: '/generalNew/personalBasic' });
    const withMall = userMenuEntries(areaById('generalNew'), accessFor({ role: 0 }), 'https://shop.example.com/');
    expect(withMall.at(-1)).toEqual({ key: 'mall', href: 'https://shop.example.com/' });
    expect(userMenuEntries(areaById('generalNew'), accessFor({ role: 0 }), 'javascript:alert(1)').map((x) => x.key)).not.toContain('mall');
  });

  it('gives the old admin edition its skin page', () => {
    const keys = userMenuEntries(areaById('admin'), accessFor({ role: 1 }), undefined).map((x) => x.key);
    expect(keys).toContain('customize');
    expect(keys).not.toContain('guide');
  });
});
