import { describe, expect, it } from 'vitest';
import { AREAS, allPaths, defaultRedirect, matchRoute } from './routes';
import { MENU_ICON_NAMES } from './menu-icon-names';

/** Every path of spec §2, area by area. */
const SPEC_PATHS = [
  '/adminNewStatr',
  '/adminNewStatr/home',
  ...[
    'account',
    'device',
    'datalogger',
    'log',
    'protocolBinding',
    'typeCode',
    'protocolChange',
    'actionLog',
    'factoryAccount',
    'factoryCode',
    // not a path of spec §2: issue 14's per-manufacturer white-labelling (custom domains)
    'domains',
    'KEYList',
    'protocolInstruction',
    'rawDataParsing',
    'rechargeRemedy',
    'deviceFunction',
    'passwordMaintenance',
  ].map((p) => `/adminNewStatr/home/${p}`),
  '/adminNew',
  ...['home', 'device', 'account', 'alarm', 'project', 'personalBasic', 'setting'].map((p) => `/adminNew/${p}`),
  ...[
    'datalogger',
    'firmware',
    'rechargePay',
    'rechargeRecord',
    'collectionFrequencyRecord',
    'rate',
    'helpform',
    'UpgFirmware',
    'strategy',
    'upgrade',
  ].map((p) => `/adminNew/setting/${p}`),
  '/admin',
  ...['home', 'account', 'device', 'alarm', 'setting'].map((p) => `/admin/${p}`),
  ...['personalBasic', 'rechargePay', 'firmware', 'customize'].map((p) => `/admin/setting/${p}`),
  // issue 13: the tabs of the classic firmware page (routes.ts header, docs/decisions.md)
  ...['UpgFirmware', 'default', 'strategy', 'upgrade'].map((p) => `/admin/setting/firmware/${p}`),
  '/generalNew',
  ...['home', 'alarm', 'deviceno', 'generalintro', 'project', 'personalBasic', 'setting'].map(
    (p) => `/generalNew/${p}`,
  ),
  ...[
    'datalogger',
    'rechargePay',
    'rechargeRecord',
    'collectionFrequencyRecord',
    'firmware',
    'alarmform',
    'reportexport',
    'reportsubscribe',
    'rate',
    'helpform',
    'browseAccount',
  ].map((p) => `/generalNew/setting/${p}`),
  '/general',
  ...['home', 'alarm', 'setting'].map((p) => `/general/${p}`),
  ...['personalBasic', 'rechargePay', 'rate', 'firmware'].map((p) => `/general/setting/${p}`),
];

describe('route table (spec §2)', () => {
  it('holds exactly the paths of the spec', () => {
    expect([...allPaths()].sort()).toEqual([...SPEC_PATHS].sort());
  });

  it('gives every entry a menu title key and an icon', () => {
    const walk = (nodes: (typeof AREAS)[number]['children']): void => {
      for (const n of nodes) {
        expect(n.titleKey).toMatch(/^menu:items\./);
        expect(n.icon).toBeDefined();
        expect(MENU_ICON_NAMES).toContain(n.icon);
        if (n.children) walk(n.children);
      }
    };
    for (const a of AREAS) walk(a.children);
  });

  it('gives every route a real page: no "not available yet" placeholder is left (issue 15 built the last ones)', () => {
    const missing: string[] = [];
    const walk = (nodes: (typeof AREAS)[number]['children'], base: string): void => {
      for (const n of nodes) {
        const path = `${base}/${n.path}`;
        // A leaf shows its page; a layout opens its default child or shows its own page.
        if (!n.page && !(n.children?.length && (n.defaultChild || n.layout === 'tabs'))) missing.push(path);
        if (n.children) walk(n.children, path);
      }
    };
    for (const a of AREAS) walk(a.children, a.base);
    expect(missing).toEqual([]);
  });

  it('puts the setting children into the menu groups of the spec', () => {
    const groups = (path: string) =>
      new Set(
        matchRoute(path)!
          .chain.at(-1)!
          .children!.map((c) => c.group)
          .filter(Boolean),
      );
    expect(groups('/adminNewStatr/home')).toEqual(
      new Set([
        'accountManagement',
        'manufacturerManagement',
        'apiInterface',
        'protocolTools',
        'rechargeManagement',
        'deviceManagement',
      ]),
    );
    expect(groups('/generalNew/setting')).toEqual(
      new Set(['datalogger', 'personal', 'alarmSettings', 'recharge', 'report']),
    );
    expect([...groups('/adminNew/setting')]).toEqual(expect.arrayContaining(['personal', 'recharge', 'strategy']));
  });

  it('matches areas by exact first segment and rejects unknown paths', () => {
    expect(matchRoute('/admin/home')?.area.id).toBe('admin');
    expect(matchRoute('/adminNew/home')?.area.id).toBe('adminNew');
    expect(matchRoute('/adminNew/home/')?.area.id).toBe('adminNew');
    expect(matchRoute('/adminX/home')).toBeUndefined();
    expect(matchRoute('/adminNew/nope')).toBeUndefined();
    expect(matchRoute('/general/setting/customize')).toBeUndefined();
  });

  it('opens the default children', () => {
    const def = (p: string) => defaultRedirect(matchRoute(p)!, p);
    expect(def('/adminNew')).toBe('/adminNew/home');
    expect(def('/adminNewStatr')).toBe('/adminNewStatr/home');
    expect(def('/adminNewStatr/home')).toBeUndefined();
    expect(def('/adminNew/setting')).toBe('/adminNew/setting/firmware');
    expect(def('/admin/setting')).toBe('/admin/setting/personalBasic');
    expect(def('/generalNew/setting')).toBe('/generalNew/setting/datalogger');
    expect(def('/general/setting')).toBe('/general/setting/personalBasic');
    // the classic firmware page is its own first tab: no redirect
    expect(def('/admin/setting/firmware')).toBeUndefined();
  });

  it('gives the classic admin firmware page the tabs of the new edition firmware pages (issue 13)', () => {
    const fw = matchRoute('/admin/setting/firmware')!.chain.at(-1)!;
    expect(fw.layout).toBe('tabs');
    expect(fw.indexTitleKey).toBe('menu:items.firmwareLibrary');
    expect(fw.access).toEqual({ module: 'system_settings' });
    expect(fw.children!.map((c) => c.path)).toEqual(['UpgFirmware', 'default', 'strategy', 'upgrade']);
    const newSetting = matchRoute('/adminNew/setting')!.chain.at(-1)!.children!;
    const newNode = (path: string) => newSetting.find((c) => c.path === path)!;
    // the same page components, titles and access rules as the new edition (no copies)
    for (const path of ['UpgFirmware', 'strategy', 'upgrade']) {
      const tab = matchRoute(`/admin/setting/firmware/${path}`)!.chain.at(-1)!;
      expect(tab.page).toBe(newNode(path).page);
      expect(tab.titleKey).toBe(newNode(path).titleKey);
      expect(tab.access).toEqual(newNode(path).access);
    }
    expect(matchRoute('/admin/setting/firmware/upgrade')!.chain.map((n) => n.access?.module)).toEqual([
      undefined,
      'system_settings',
      'device_manag',
    ]);
    expect(matchRoute('/admin/setting/firmware/default')!.chain.at(-1)!.titleKey).toBe('menu:items.defaultFirmware');
    expect(matchRoute('/admin/setting/firmware/nope')).toBeUndefined();
    expect(matchRoute('/adminNew/setting/firmware/strategy')).toBeUndefined();
  });
});
