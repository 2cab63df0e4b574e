import { beforeEach, describe, expect, it } from 'vitest';
import { permissionLists, type PermissionLists, type Role } from '@sunwatch/protocol';
import { accessFor } from './access';
import { canOpenPath, editionSwitchPath, landingFor, landingPath } from './edition';
import { resolveNavigation, type GuardDeps } from './guard';
import { AREAS, DEVICE_DETAIL, allPaths, areaById, matchRoute } from './routes';
import { saveLogin, setNewEdition, setPermissions } from './session';
import { authDat, permissionsOf, resetBrowserState } from '../test/session-fixtures';

/** The demo tenant tree of apps/server/src/demo/seed-demo.ts (README "Demo accounts"). */
interface DemoAccount {
  usr: string;
  role: Role;
  permissions?: PermissionLists;
}
const ALL_MODULES = permissionLists(
  permissionsOf('overview', 'device_manag', 'account_manag', 'alarm_manag', 'system_settings'),
);
const DEMO: readonly DemoAccount[] = [
  { usr: 'operator', role: 15 },
  { usr: 'sunmaker', role: 1 },
  { usr: 'dealer_north', role: 2, permissions: ALL_MODULES },
  { usr: 'north_ops', role: 2, permissions: permissionLists(permissionsOf('device_manag', 'alarm_manag')) },
  { usr: 'group_east', role: 3 },
  { usr: 'owner_anna', role: 0 },
  { usr: 'viewer_cara', role: 5 },
];
const NORTH_OPS = DEMO.find((d) => d.usr === 'north_ops')!;
const VIEWER = DEMO.find((d) => d.usr === 'viewer_cara')!;
const OWNER = DEMO.find((d) => d.usr === 'owner_anna')!;
const DEALER = DEMO.find((d) => d.usr === 'dealer_north')!;
const access = (a: DemoAccount) => accessFor({ role: a.role, permissions: a.permissions });

/** Every page of the table, plus a device detail under each node that has one. */
function everyPath(): string[] {
  const detail = 'SWNORTH0000001/2341/1/SN0001';
  const out = allPaths();
  for (const p of allPaths()) {
    const m = matchRoute(p);
    if (m?.chain[m.chain.length - 1]?.subPage === DEVICE_DETAIL) out.push(`${p}/${detail}`);
  }
  return out;
}

const noCalls: GuardDeps = {
  call: (() => Promise.reject(new Error('no call expected'))) as unknown as GuardDeps['call'],
};

function signIn(a: DemoAccount): void {
  saveLogin(authDat({ role: a.role, usr: a.usr }), { remember: false });
  if (a.permissions) setPermissions(a.permissions);
}

/** Follows the guard's redirects from `path` to the page it allows (or a public page). */
async function settle(path: string): Promise<string> {
  let at = path;
  for (let i = 0; i < 5; i++) {
    const r = await resolveNavigation(new URL(at, 'http://localhost'), noCalls);
    if ('allow' in r) return at;
    at = r.redirect;
  }
  throw new Error(`redirect loop from ${path}`);
}

beforeEach(() => resetBrowserState());

describe('edition switch', () => {
  it('north_ops goes from the device list to the classic device list, not to /admin/home (401)', () => {
    const a = access(NORTH_OPS);
    expect(canOpenPath('/admin/home', a)).toBe(false); // the old target: overview module needed
    expect(editionSwitchPath('/adminNew/device', a)).toBe('/admin/device');
    expect(editionSwitchPath('/adminNew/alarm', a)).toBe('/admin/alarm');
    expect(editionSwitchPath('/admin/device', a)).toBe('/adminNew/device');
    // no project page in the classic edition: the landing page she may open
    expect(editionSwitchPath('/adminNew/project', a)).toBe('/admin/device');
    expect(editionSwitchPath('/adminNew/personalBasic', a)).toBe('/admin/setting/personalBasic');
    expect(editionSwitchPath('/admin/setting/personalBasic', a)).toBe('/adminNew/personalBasic');
    expect(editionSwitchPath('/adminNew/device/PN1/2341/1/SN1', a)).toBe('/admin/device/PN1/2341/1/SN1');
  });

  it('keeps the function across editions for an owner', () => {
    const a = access(OWNER);
    expect(editionSwitchPath('/generalNew/home', a)).toBe('/general/home');
    expect(editionSwitchPath('/generalNew/deviceno', a)).toBe('/general/home');
    expect(editionSwitchPath('/generalNew/deviceno/PN1/2341/1/SN1', a)).toBe('/general/home/PN1/2341/1/SN1');
    expect(editionSwitchPath('/general/home/PN1/2341/1/SN1', a)).toBe('/generalNew/deviceno/PN1/2341/1/SN1');
    expect(editionSwitchPath('/generalNew/setting/rate', a)).toBe('/general/setting/rate');
    expect(editionSwitchPath('/generalNew/setting', a)).toBe('/general/setting/personalBasic');
    expect(editionSwitchPath('/general/setting/firmware', a)).toBe('/generalNew/setting/firmware');
    expect(editionSwitchPath('/generalNew/project', a)).toBe('/general/home');
  });

  it('keeps the function for a distributor with every module', () => {
    const a = access(DEALER);
    expect(editionSwitchPath('/adminNew/home', a)).toBe('/admin/home');
    expect(editionSwitchPath('/adminNew/setting/rechargePay', a)).toBe('/admin/setting/rechargePay');
    expect(editionSwitchPath('/admin/setting/customize', a)).toBe('/adminNew/home');
    // issue 13: the classic firmware page's tabs and the new edition's firmware pages
    expect(editionSwitchPath('/adminNew/setting/firmware', a)).toBe('/admin/setting/firmware');
    expect(editionSwitchPath('/adminNew/setting/UpgFirmware', a)).toBe('/admin/setting/firmware/UpgFirmware');
    expect(editionSwitchPath('/adminNew/setting/strategy', a)).toBe('/admin/setting/firmware/strategy');
    expect(editionSwitchPath('/adminNew/setting/upgrade', a)).toBe('/admin/setting/firmware/upgrade');
    expect(editionSwitchPath('/admin/setting/firmware', a)).toBe('/adminNew/setting/firmware');
    expect(editionSwitchPath('/admin/setting/firmware/default', a)).toBe('/adminNew/setting/firmware');
    expect(editionSwitchPath('/admin/setting/firmware/UpgFirmware', a)).toBe('/adminNew/setting/UpgFirmware');
    expect(editionSwitchPath('/admin/setting/firmware/strategy', a)).toBe('/adminNew/setting/strategy');
    expect(editionSwitchPath('/admin/setting/firmware/upgrade', a)).toBe('/adminNew/setting/upgrade');
  });

  it('never sends a viewer to a page she may not open', () => {
    const a = access(VIEWER);
    expect(editionSwitchPath('/generalNew/setting/alarmform', a)).toBe('/general/home');
    expect(editionSwitchPath('/general/setting/personalBasic', a)).toBe('/generalNew/personalBasic');
    expect(editionSwitchPath('/general/setting', a)).toBe('/generalNew/setting/alarmform');
  });

  it('the operator area has no other edition', () => {
    expect(editionSwitchPath('/adminNewStatr/home', access(DEMO[0]!))).toBeUndefined();
  });

  it('over the whole route table and every demo account: the target is a page the guard lets the account open', async () => {
    let checked = 0;
    for (const acc of DEMO) {
      const a = access(acc);
      for (const from of everyPath()) {
        const area = AREAS.find((x) => from === x.base || from.startsWith(`${x.base}/`))!;
        if (!a.canOpenArea(area) || !area.otherEdition) continue;
        const to = editionSwitchPath(from, a);
        expect(to, `${acc.usr} ${from}`).toBeDefined();
        expect(to!.startsWith(`${areaById(area.otherEdition).base}/`), `${acc.usr} ${from} → ${to}`).toBe(true);
        resetBrowserState();
        signIn(acc);
        // the guard allows the target as it is: no 401 and no further redirect
        expect(await settle(to!), `${acc.usr} ${from} → ${to}`).toBe(to);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe('landing', () => {
  it('every demo account lands on a page it may open, in both editions', async () => {
    for (const acc of DEMO) {
      for (const newEdition of [true, false]) {
        resetBrowserState();
        setNewEdition(newEdition);
        signIn(acc);
        const home = landingFor({ role: acc.role, isNewEdition: newEdition, permissions: acc.permissions });
        expect(canOpenPath(home, access(acc)), `${acc.usr} ${home}`).toBe(true);
        expect(await settle('/home'), acc.usr).toBe(home);
      }
    }
  });

  it('a sub-administrator without the overview module never lands on the overview', async () => {
    const none: DemoAccount = { usr: 'empty_ops', role: 2, permissions: permissionLists(permissionsOf()) };
    expect(landingFor({ role: 2, isNewEdition: true, permissions: none.permissions })).toBe('/adminNew/personalBasic');
    expect(landingFor({ role: 2, isNewEdition: false, permissions: none.permissions })).toBe('/admin/setting/personalBasic');
    signIn(none);
    expect(await settle('/adminNew')).toBe('/adminNew/personalBasic');
    signIn(NORTH_OPS);
    expect(await settle('/admin')).toBe('/admin/device');
  });

  it('landingPath follows the default child first, then menu order', () => {
    expect(landingPath(areaById('adminNew'), access(DEALER))).toBe('/adminNew/home');
    expect(landingPath(areaById('adminNew'), access(NORTH_OPS))).toBe('/adminNew/device');
    expect(landingPath(areaById('generalNew'), access(VIEWER))).toBe('/generalNew/home');
    expect(landingPath(areaById('adminNew'), access(VIEWER))).toBeUndefined();
  });
});
