/**
 * Route ↔ permission: the module a route asks of a role-2 sub-administrator (routes.ts
 * `access.module` along the route's chain) matches the permissions of the actions its page
 * calls. Every action a page calls must need either no permission (null or absent) or one of
 * the route's modules; otherwise a sub-administrator who may open the page gets err 11 from it,
 * or one who may not open it could still use the action.
 *
 * The actions of a page are found statically: the page module of each route (its `page`
 * loader, matched to its file by module identity) and every file it imports under features/
 * and components/ (transitively, dynamic imports included; app/ is the shell, not a page) are
 * scanned for `api.call(<names>, …)`. A call whose action name is not a literal fails the test,
 * so nothing escapes the scan.
 *
 * Works with the catalogue's `access.permission` optional (mostly absent) and required
 * (a PermissionModule or null on every action).
 */
import { describe, expect, it } from 'vitest';
import { ACTION_NAMES, findAction } from '@sunwatch/protocol';
import { importSpecifiers, resolveSpecifier } from '../test/source-paths';
import { accessFor } from './access';
import { AREAS, matchRoute, type AreaDef, type PageLoader, type RouteNode } from './routes';

/** The scanned sources (features/ and components/), by path relative to this folder. */
const SOURCES = import.meta.glob<string>(
  ['../features/**/*.{ts,tsx}', '../components/**/*.{ts,tsx}', '!**/*.test.{ts,tsx}'],
  { query: '?raw', import: 'default', eager: true },
);
const SOURCE_FILES = new Set(Object.keys(SOURCES));
const ACTIONS = new Set<string>(ACTION_NAMES);

/** The permission an action needs: undefined or null for none. */
export type PermissionOf = (action: string) => string | null | undefined;

export const catalogPermission: PermissionOf = (action) => {
  const def = findAction(action);
  if (!def) throw new Error(`unknown action ${action}`);
  // `permission` is optional today and `PermissionModule | null` once every action declares it.
  return (def.access as { permission?: string | null }).permission;
};

/** The actions a page needs but the route's modules do not grant: `action (permission)`. */
export function permissionMismatches(
  routeModules: readonly string[],
  actions: Iterable<string>,
  permissionOf: PermissionOf = catalogPermission,
): string[] {
  const out: string[] = [];
  for (const a of actions) {
    const p = permissionOf(a);
    if (p != null && !routeModules.includes(p)) out.push(`${a} (${p})`);
  }
  return out.sort();
}

/** Action names called in a source file; `unresolved` lists calls without a literal name. */
export function actionCalls(source: string): { actions: string[]; unresolved: string[] } {
  const actions: string[] = [];
  const unresolved: string[] = [];
  // also the account screens' uploads (uploadAction) and their mutation hook
  for (const m of source.matchAll(/\b(?:(?:api|client|baseClient)\.call|uploadAction|useAdminMutation|useDataloggerMutation)\(\s*([^,)]*)/g)) {
    const names = [...m[1]!.matchAll(/['"`](\w+)['"`]/g)].map((n) => n[1]!).filter((n) => ACTIONS.has(n));
    if (names.length === 0) unresolved.push(m[0]);
    actions.push(...names);
  }
  return { actions, unresolved };
}

/** The page file and every file under features/ and components/ it imports, transitively. */
function closure(entry: string): string[] {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of importSpecifiers(SOURCES[file] ?? '')) {
      const target = spec.startsWith('.') ? resolveSpecifier(file, spec, SOURCE_FILES) : undefined;
      if (target) todo.push(target);
    }
  }
  return [...seen];
}

/** The page modules by file, so a route's loader is matched to its file by module identity. */
const PAGE_FILES = import.meta.glob(['../features/**/pages/*.tsx', '!**/*.test.tsx']);

async function pageFiles(): Promise<Map<unknown, string>> {
  const byModule = new Map<unknown, string>();
  for (const [path, load] of Object.entries(PAGE_FILES)) {
    byModule.set(await load(), path);
  }
  return byModule;
}

interface RoutePage {
  path: string;
  area: AreaDef;
  modules: string[];
  page: PageLoader;
}

function routePages(): RoutePage[] {
  const out: RoutePage[] = [];
  const walk = (area: AreaDef, prefix: string, nodes: readonly RouteNode[], modules: string[]) => {
    for (const n of nodes) {
      const path = `${prefix}/${n.path}`;
      const mods = n.access?.module ? [...modules, n.access.module] : modules;
      if (n.page) out.push({ path, area, modules: mods, page: n.page });
      if (n.subPage) out.push({ path: `${path}/${n.subPage.pattern}`, area, modules: mods, page: n.subPage.page });
      if (n.children) walk(area, path, n.children, mods);
    }
  };
  for (const a of AREAS) walk(a, a.base, a.children, []);
  return out;
}

/**
 * Actions of another module that a page calls only behind its own check of that module
 * (`access.hasModule`), so a sub-administrator without the module never sends them. The account
 * screens: the device-control visibility tab and the viewer's plant picker need device_manag
 * (features/accounts-admin/components/use-admin-access.test.ts checks the gate).
 */
const MODULE_GATED: Record<string, readonly string[]> = {
  // (issue 14: the tab's devcode picker also reads the manufacturer's visible devcodes)
  '/adminNew/account': ['queryDeviceCtrlFieldForDist', 'editDeviceCtrlFieldForDist', 'webQueryPlants', 'queryVisibleDevcodes'],
  '/admin/account': ['queryDeviceCtrlFieldForDist', 'editDeviceCtrlFieldForDist', 'webQueryPlants', 'queryVisibleDevcodes'],
  // issue 11: the alarm pages' plant pickers and export follow-up (features/alarms/model/abilities.ts `plants`, `export`)
  '/adminNew/alarm': ['webQueryPlants', 'webQueryReportFiles', 'queryReportFileUrl'],
  '/admin/alarm': ['webQueryPlants', 'webQueryReportFiles', 'queryReportFileUrl'],
  // issue 10: the plant form's owner picker lists owners with account management only
  // (features/plants/api/mutations.ts `usePlantOwnerChoices`), else the owners of the plants it sees
  '/adminNew/project': ['queryPlantOwners'],
  '/adminNew/project/:pid': ['queryPlantOwners'],
  // issue 15: the old edition's rechargePay lists cards (device_manag); its checkout is offered with
  // system_settings only (features/flow-cards RechargePayPage `canPay`), and the result page is
  // reached from that checkout
  '/admin/setting/rechargePay': ['quoteRechargeOrder', 'createRechargeOrder', 'payOrder', 'queryPayResult'],
  '/admin/setting/rechargePay/result': ['quoteRechargeOrder', 'createRechargeOrder', 'payOrder', 'queryPayResult'],
};

/**
 * Actions a page sends only for one role that is not 2: the personal page's device-control
 * password card is a manufacturer's (role 1; PersonalBasicPage.test.tsx checks the gate).
 */
const ROLE_GATED: Record<string, readonly string[]> = {
  '/adminNew/personalBasic': ['queryDeviceCtrlPwd', 'setDeviceCtrlPwd'],
  '/admin/setting/personalBasic': ['queryDeviceCtrlPwd', 'setDeviceCtrlPwd'],
  // issue 14: the datalogger page's move dialog (manufacturer / owner picker) is the operator's
  // (role 15; features/dataloggers/model/abilities.ts `move`, abilities.test.ts checks the gate)
  '/adminNew/setting/datalogger': ['webQueryUsrEs'],
};

describe('route ↔ action permissions', () => {
  it('every action a page calls needs no permission or its route module', { timeout: 60_000 }, async () => {
    const files = await pageFiles();
    const routes = routePages();
    expect(routes.length).toBeGreaterThan(10);
    const problems: string[] = [];
    const seenActions = new Set<string>();
    for (const r of routes) {
      const file = files.get(await r.page());
      if (!file) {
        problems.push(`${r.path}: its page is not a file under features/**/pages/`);
        continue;
      }
      const actions = new Set<string>();
      for (const f of closure(file)) {
        const found = actionCalls(SOURCES[f]!);
        for (const u of found.unresolved) problems.push(`${f}: no literal action name in ${u}`);
        for (const a of found.actions) actions.add(a);
      }
      for (const a of actions) seenActions.add(a);
      // Only role 2 is limited by permissions (server: callerHasPermission; web: accessFor);
      // an area without role 2 has no permission to match.
      if (!r.area.roles.includes(2)) continue;
      for (const a of MODULE_GATED[r.path] ?? []) actions.delete(a);
      for (const a of ROLE_GATED[r.path] ?? []) actions.delete(a);
      for (const m of permissionMismatches(r.modules, actions)) {
        problems.push(`${r.path} [${r.modules.join(', ') || 'no module'}] calls ${m}`);
      }
    }
    expect(problems).toEqual([]);
    // the scan sees the pages' calls (guards against a scan that finds nothing)
    expect([...seenActions]).toEqual(
      expect.arrayContaining(['webQueryDeviceEs', 'webQueryPlants', 'webQueryFleetOverview', 'queryAccountInfo', 'queryDeviceInfo']),
    );
  });

  it('the scan finds literal names, both names of a conditional, and flags computed names', () => {
    expect(actionCalls("api.call('webQueryDeviceEs', { ...params })").actions).toEqual(['webQueryDeviceEs']);
    expect(actionCalls("api.call(follow ? 'focusDevice' : 'unfocusDevice', tupleOf(d))").actions).toEqual([
      'focusDevice',
      'unfocusDevice',
    ]);
    expect(actionCalls('api.call(name, {})')).toEqual({ actions: [], unresolved: ['api.call(name'] });
  });

  it('fails when an action needs another module than its route (fake catalogue)', () => {
    const permissions: Record<string, string | null | undefined> = {
      listA: 'device_manag',
      listB: null,
      listC: undefined,
      accounts: 'account_manag',
    };
    const of: PermissionOf = (a) => permissions[a];
    expect(permissionMismatches(['device_manag'], ['listA', 'listB', 'listC'], of)).toEqual([]);
    expect(permissionMismatches(['device_manag'], ['listA', 'accounts'], of)).toEqual(['accounts (account_manag)']);
    // a route without a module (personal info) may only call actions without a permission
    expect(permissionMismatches([], ['listB', 'listC'], of)).toEqual([]);
    expect(permissionMismatches([], ['listA'], of)).toEqual(['listA (device_manag)']);
  });

  it('fails when an action needs another module than its route (real catalogue)', () => {
    // webQueryFleetOverview declares the overview module: fine on a home, wrong on a device route.
    expect(catalogPermission('webQueryFleetOverview')).toBe('overview');
    expect(permissionMismatches(['overview'], ['webQueryFleetOverview'])).toEqual([]);
    expect(permissionMismatches(['device_manag'], ['webQueryFleetOverview'])).toEqual(['webQueryFleetOverview (overview)']);
  });
});

/** Every full path of an area with its chain of nodes. */
function pathsOf(area: AreaDef): Array<{ path: string; chain: RouteNode[] }> {
  const out: Array<{ path: string; chain: RouteNode[] }> = [];
  const walk = (prefix: string, nodes: readonly RouteNode[], chain: RouteNode[]) => {
    for (const n of nodes) {
      out.push({ path: `${prefix}/${n.path}`, chain: [...chain, n] });
      if (n.children) walk(`${prefix}/${n.path}`, n.children, [...chain, n]);
    }
  };
  walk(area.base, area.children, []);
  return out;
}

describe('route ↔ roles (spec §2, §6)', () => {
  it('a role facet names only roles of its area', () => {
    for (const a of AREAS) {
      for (const { path, chain } of pathsOf(a)) {
        const roles = chain[chain.length - 1]!.access?.roles ?? [];
        for (const r of roles) expect(a.roles, `${path} role ${r}`).toContain(r);
      }
    }
  });

  it('a viewer opens exactly the monitoring pages, personal info, alarm e-mails and reports', () => {
    const viewer = accessFor({ role: 5 });
    const open = AREAS.filter((a) => viewer.canOpenArea(a))
      .flatMap((a) => pathsOf(a))
      .filter(({ chain }) => chain.every((n) => viewer.canSee(n)))
      .map(({ path }) => path);
    expect(open).toEqual([
      '/generalNew/home',
      '/generalNew/alarm',
      '/generalNew/deviceno',
      '/generalNew/generalintro',
      '/generalNew/project',
      '/generalNew/personalBasic',
      '/generalNew/setting',
      '/generalNew/setting/alarmform',
      '/generalNew/setting/reportexport',
      '/generalNew/setting/reportsubscribe',
      '/general/home',
      '/general/alarm',
      '/general/setting',
      '/general/setting/personalBasic',
    ]);
  });

  it('an owner opens every page of the general areas', () => {
    const owner = accessFor({ role: 0 });
    for (const a of AREAS.filter((x) => owner.canOpenArea(x))) {
      for (const { path, chain } of pathsOf(a)) expect(chain.every((n) => owner.canSee(n)), path).toBe(true);
    }
  });

  it('the write-only pages are the ones a viewer could never use', () => {
    const writes = AREAS.flatMap((a) => pathsOf(a))
      .filter(({ chain }) => chain[chain.length - 1]!.access?.writes)
      .map(({ path }) => path);
    expect(writes).toEqual([
      '/generalNew/setting/datalogger',
      '/generalNew/setting/firmware',
      '/generalNew/setting/rate',
      '/generalNew/setting/helpform',
      '/generalNew/setting/browseAccount',
      '/generalNew/setting/rechargePay',
      '/general/setting/rechargePay',
      '/general/setting/rate',
      '/general/setting/firmware',
    ]);
    for (const w of writes) expect(matchRoute(w)).toBeDefined();
  });
});
