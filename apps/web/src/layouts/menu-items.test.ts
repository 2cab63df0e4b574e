import { describe, expect, it } from 'vitest';
import { isValidElement } from 'react';
import type { TFunction } from 'i18next';
import { MENU_ICON_NAMES } from '../app/menu-icon-names';
import { AREAS } from '../app/routes';
import type { Access } from '../app/access';
import { MENU_ICONS, areaMenuItems } from './menu-items';

describe('menu icons', () => {
  it('maps every icon name of the route table to a component', () => {
    for (const name of MENU_ICON_NAMES) expect(MENU_ICONS[name], name).toBeTruthy();
  });

  it('renders each area entry with the icon its route names', () => {
    const all = { canSee: () => true } as unknown as Access;
    const t = ((k: string) => k) as unknown as TFunction;
    for (const area of AREAS) {
      const items = areaMenuItems(area.children, area.base, all, t);
      items.forEach((item, i) => {
        const node = area.children[i]!;
        const icon = (item as { icon?: unknown }).icon;
        expect(isValidElement(icon)).toBe(true);
        expect((icon as { type: unknown }).type).toBe(MENU_ICONS[node.icon!]);
      });
    }
  });
});
