import crypto from 'node:crypto';
import {
  ACCOUNT_STATUS,
  ACTION_NAMES,
  catalogue,
  getDefinition,
  PERMISSION_TREE,
  ROLE,
  sha1Hex,
  signLogin,
  WEB_COMPANY_KEY,
  type ActionDef,
  type AuthDat,
  type Envelope,
  type PermissionModule,
  type Role,
} from '@sunwatch/protocol';
import type { Kysely } from 'kysely';
import { moduleGrant } from '../../src/demo/seed-demo.js';
import { syntheticValues } from '../../src/modules/telemetry/synthetic.js';
import { insertDatalogger, insertDevice, insertPlant, insertSamples } from '../factories/telemetry-rows.js';
import { encodePairs } from '../harness.js';
import type { ServedCopy } from './copies.js';
import { wireCall } from './wire.js';

/**
 * The two-tenant fixture of the isolation matrix, built through the services and the telemetry
 * factories (not the demo seed):
 *
 *   operator OP
 *   ├─ tenant A: manufacturer M1 ─ distributor D1 ─┬─ owner O1 (plants A1, A1X; viewer V1 of A1)
 *   │            │                                 ├─ owner O2 (plant A2)
 *   │            │                                 ├─ owner ODIS (disabled after signing in)
 *   │            │                                 └─ sub-administrators SA_<module> / SA_none (admin_of D1)
 *   │            ├─ group account G1 (member D1)
 *   │            └─ unbound datalogger AU (admin D1, vendor M1)
 *   └─ tenant B: manufacturer M2 ─ distributor D2 ─ owner O3 (plant B); unbound datalogger BU (admin D2)
 *
 * Every free-text field of every row carries the marker of its "unit" (who may see it), so that
 * a response can be searched for markers its caller must never see.
 */

/** Units of visibility; every row of the fixture belongs to one. */
export type Unit = 'A' | 'A1' | 'A1X' | 'A2' | 'AU' | 'B' | 'BU';
export const UNITS: readonly Unit[] = ['A', 'A1', 'A1X', 'A2', 'AU', 'B', 'BU'];

export const SUBADMIN_MODULES = PERMISSION_TREE.map((m) => m.action as PermissionModule);

/**
 * The function points (buttons) that gate some catalogue action (`access.button`), read from the
 * catalogue: a new gated action or button joins the button axis of the matrix by itself.
 */
export const GATING_BUTTONS: readonly string[] = [
  ...new Set(
    ACTION_NAMES.flatMap((n) => {
      const b = (catalogue as Record<string, ActionDef>)[n]!.access.button;
      return b ? [b] : [];
    }),
  ),
].sort();

/** The module a button belongs to. */
export function moduleOfButton(button: string): PermissionModule {
  const m = PERMISSION_TREE.find((x) => x.buttons.includes(button));
  if (!m) throw new Error(`button ${button} is in no module of PERMISSION_TREE`);
  return m.action as PermissionModule;
}

/** A module with its pages and no button (the frame a button role is built on). */
function modulePages(module: PermissionModule): string[] {
  const m = PERMISSION_TREE.find((x) => x.action === module)!;
  return [m.action, ...m.first.flatMap((f) => [f.action, ...(f.second ?? [])])];
}

/**
 * The function points of the custom role bound to a sub-administrator caller (null: not a
 * sub-administrator, unrestricted by function points):
 * - `SA_<module>`: the whole module (pages and every button); `SA_none`: nothing;
 * - `SA_with:<button>`: the button's module and pages, and only that button;
 * - `SA_without:<button>`: the whole module but that button.
 */
export function roleFunctionsOf(caller: CallerKey): readonly string[] | null {
  if (caller === 'SA_none') return [];
  if (caller.startsWith('SA_with:')) {
    const b = caller.slice('SA_with:'.length);
    return [...modulePages(moduleOfButton(b)), b];
  }
  if (caller.startsWith('SA_without:')) {
    const b = caller.slice('SA_without:'.length);
    return moduleGrant([moduleOfButton(b)]).filter((f) => f !== b);
  }
  if (caller.startsWith('SA_')) return moduleGrant([caller.slice(3)]);
  return null;
}

/** The callers of the button axis: one role with and one without each gating button, both bound in turn to account SAB. */
export type ButtonCaller = `SA_with:${string}` | `SA_without:${string}`;
export const BUTTON_CALLERS: readonly ButtonCaller[] = GATING_BUTTONS.flatMap((b) => [
  `SA_with:${b}` as const,
  `SA_without:${b}` as const,
]);
export function isButtonCaller(caller: CallerKey): caller is ButtonCaller {
  return caller.startsWith('SA_with:') || caller.startsWith('SA_without:');
}

export type CallerKey =
  | 'OP'
  | 'M1'
  | 'D1'
  | 'G1'
  | `SA_${PermissionModule}`
  | 'SA_none'
  | ButtonCaller
  | 'O1'
  | 'O2'
  | 'V1'
  | 'D2'
  | 'O3'
  | 'ANON'
  | 'DISABLED';

/** The account-holding callers (everyone but ANON). */
export type AccountKey = Exclude<CallerKey, 'ANON' | ButtonCaller> | 'M2' | 'ODIS_ACCOUNT' | 'SAB';

interface AccountSpec {
  key: Exclude<AccountKey, 'DISABLED' | 'ODIS_ACCOUNT'> | 'ODIS' | 'DS1' | 'E1' | 'V2' | 'DSB' | 'E3' | 'V3';
  role: Role;
  parent: string | null;
  unit: Unit | null;
  vendorCode?: string;
  dealerCode?: string;
  adminOf?: string;
  /** Sub-administrators: the function points of the custom role bound to it (fixture roles). */
  functions?: readonly string[];
}

/**
 * What a sub-administrator's legacy `accounts.permissions` column holds: every function point.
 * Its rights must come from the bound custom role (the dispatcher reads that role on every call),
 * so a stale, broader legacy list must change nothing: the matrix fails if it is read instead.
 */
const LEGACY_FULL_GRANT = moduleGrant(SUBADMIN_MODULES);

const SUBADMINS: AccountSpec[] = [
  ...SUBADMIN_MODULES.map((m) => ({
    key: `SA_${m}` as const,
    role: ROLE.DISTRIBUTOR,
    parent: 'D1',
    unit: 'A' as const,
    adminOf: 'D1',
    functions: roleFunctionsOf(`SA_${m}`)!,
  })),
  { key: 'SA_none', role: ROLE.DISTRIBUTOR, parent: 'D1', unit: 'A', adminOf: 'D1', functions: [] },
];

/** The account of the button axis: at rest bound to the empty role, rebound per cell (BUTTON_CALLERS). */
const BUTTON_ACCOUNT: AccountSpec = {
  key: 'SAB',
  role: ROLE.DISTRIBUTOR,
  parent: 'D1',
  unit: 'A',
  adminOf: 'D1',
  functions: [],
};

const ACCOUNTS: AccountSpec[] = [
  { key: 'OP', role: ROLE.OPERATOR, parent: null, unit: null },
  { key: 'M1', role: ROLE.MANUFACTURER, parent: 'OP', unit: 'A', vendorCode: 'ISOA' },
  { key: 'D1', role: ROLE.DISTRIBUTOR, parent: 'M1', unit: 'A', dealerCode: 'ISOA1' },
  { key: 'G1', role: ROLE.GROUP, parent: 'M1', unit: 'A' },
  ...SUBADMINS,
  BUTTON_ACCOUNT,
  { key: 'O1', role: ROLE.OWNER, parent: 'D1', unit: 'A1' },
  { key: 'O2', role: ROLE.OWNER, parent: 'D1', unit: 'A2' },
  { key: 'ODIS', role: ROLE.OWNER, parent: 'D1', unit: 'A' },
  { key: 'V1', role: ROLE.VIEWER, parent: 'O1', unit: 'A1' },
  { key: 'M2', role: ROLE.MANUFACTURER, parent: 'OP', unit: 'B', vendorCode: 'ISOB' },
  { key: 'D2', role: ROLE.DISTRIBUTOR, parent: 'M2', unit: 'B', dealerCode: 'ISOB1' },
  { key: 'O3', role: ROLE.OWNER, parent: 'D2', unit: 'B' },
  // Targets of account management that hold nothing (delete, move, distribute to) and viewers.
  { key: 'DS1', role: ROLE.DISTRIBUTOR, parent: 'D1', unit: 'A', dealerCode: 'ISOA2' },
  { key: 'E1', role: ROLE.OWNER, parent: 'D1', unit: 'A' },
  { key: 'V2', role: ROLE.VIEWER, parent: 'O2', unit: 'A2' },
  { key: 'DSB', role: ROLE.DISTRIBUTOR, parent: 'D2', unit: 'B', dealerCode: 'ISOB2' },
  { key: 'E3', role: ROLE.OWNER, parent: 'D2', unit: 'B' },
  { key: 'V3', role: ROLE.VIEWER, parent: 'O3', unit: 'B' },
];

/** Parent of every fixture account (by key), for scope computations of the model. */
export const ACCOUNT_PARENT: Readonly<Record<string, string | null>> = Object.fromEntries(
  ACCOUNTS.map((a) => [a.key, a.parent]),
);

/** Telemetry objects: one plant per owner-unit, a datalogger per plant plus unbound ones, a device per bound datalogger. */
export type ObjectKey = 'A1' | 'A1X' | 'A2' | 'B' | 'AU' | 'BU' | 'AO' | 'BO';

export interface PlantRef {
  pid: number;
  unit: Unit;
}
export interface DataloggerRef {
  id: number;
  pn: string;
  unit: Unit;
}
export interface DeviceRef {
  id: number;
  pn: string;
  devcode: number;
  devaddr: number;
  sn: string;
  unit: Unit;
  /** The id of the device's alarm (issue 11: the handling actions name it). */
  alarmId?: number;
}

export interface SessionKeys {
  token: string;
  secret: string;
}

export interface Fixture {
  markers: Record<Unit, string>;
  /** Account ids by key (ODIS = the disabled owner; DISABLED is its session). */
  ids: Record<string, number>;
  usr: Record<string, string>;
  passwords: Record<string, string>;
  sessions: Partial<Record<CallerKey, SessionKeys>>;
  plants: Partial<Record<ObjectKey, PlantRef>>;
  dataloggers: Partial<Record<ObjectKey, DataloggerRef>>;
  devices: Partial<Record<ObjectKey, DeviceRef>>;
  /** Extra rows planted for other kinds (alarms). */
  alarms: number;
  /** User groups and custom roles of D1 (GA, RA) and D2 (GB, RB), made through their actions. */
  groups: Partial<Record<'GA' | 'GB', number>>;
  roles: Partial<Record<'RA' | 'RB', number>>;
  /** Administrator (account key) of every user group and custom role in the fixture, by id. */
  groupAdmins: Map<number, string>;
  roleAdmins: Map<number, string>;
  /**
   * Custom roles of D1 bound to the sub-administrators (addRole + assignRole): by caller key
   * (SA_<module>, SA_none, and every button caller, whose role is bound to SAB per cell).
   */
  subAdminRoles: Record<string, number>;
  /** Datalogger orders sold to D1 (OA) and D2 (OB), each of one stock datalogger. */
  orders: Partial<Record<'OA' | 'OB', string>>;
  /** What could not be built (an action without handler yet): every cell needing it fails. */
  setupProblems: string[];
  vendorCodes: Record<'M1' | 'M2', string>;
  dealerCodes: Record<'D1' | 'D2', string>;
}

const DEVCODE = 5121;

function hex(n: number): string {
  return crypto.randomBytes(n).toString('hex');
}

/** The marker of a unit: `zz<unit>-<random>`, lower case (usernames and emails carry it too). */
function marker(unit: Unit): string {
  return `zz${unit.toLowerCase()}-${hex(4)}`;
}

/** Sign-in over HTTP exactly like the web client (authSource, login-signed, strict salts). */
export async function httpLogin(
  url: string,
  usr: string,
  password: string,
  salt: string,
  ip: string,
): Promise<Envelope<AuthDat>> {
  const tail = `&action=authSource` + encodePairs({ usr, 'company-key': WEB_COMPANY_KEY, source: 1 });
  const sign = signLogin(salt, sha1Hex(password), tail);
  const res = await fetch(`${url}/public/?sign=${sign}&salt=${salt}${tail}`, { headers: { 'x-forwarded-for': ip } });
  return (await res.json()) as Envelope<AuthDat>;
}

export async function buildFixture(
  served: ServedCopy,
  now: number,
  nextSalt: () => string,
  nextIp: () => string,
): Promise<Fixture> {
  const { ctx } = served;
  const db = ctx.database.db;
  const markers = Object.fromEntries(UNITS.map((u) => [u, marker(u)])) as Record<Unit, string>;
  const ids: Record<string, number> = {};
  const usr: Record<string, string> = {};
  const passwords: Record<string, string> = {};
  const vendorCodes = { M1: `VA${hex(2)}`.toUpperCase(), M2: `VB${hex(2)}`.toUpperCase() };
  const dealerCodes = { D1: `DA${hex(2)}`.toUpperCase(), D2: `DB${hex(2)}`.toUpperCase() };

  for (const a of ACCOUNTS) {
    const m = a.unit ? markers[a.unit] : '';
    const name = a.unit ? `${m}_${a.key.toLowerCase()}` : `iso_${a.key.toLowerCase()}_${hex(3)}`;
    const password = `Pw_${hex(6)}_2026`;
    const parentId = a.parent ? ids[a.parent]! : null;
    const row = await ctx.services.accounts.create({
      usr: name,
      password,
      role: a.role,
      parentId,
      qname: a.unit ? `${m} ${a.key} name` : a.key,
      email: a.unit ? `${m}.${a.key.toLowerCase()}@example.com` : '',
      mobile: a.unit ? '+86 138 0000 0000' : '',
      cname: a.unit ? `${m} company` : '',
      vendorCode: a.key === 'M1' ? vendorCodes.M1 : a.key === 'M2' ? vendorCodes.M2 : null,
      dealerCode: a.key === 'D1' ? dealerCodes.D1 : a.key === 'D2' ? dealerCodes.D2 : null,
      permissions: a.functions ? LEGACY_FULL_GRANT : null,
      adminOf: a.adminOf ? ids[a.adminOf]! : null,
      createdBy: parentId,
    });
    if (a.unit) {
      await db
        .updateTable('accounts')
        .set({ description: `${m} description`, caddr: `${m} company address`, ctel: '', qq: `${m}qq`, wx: `${m}wx` })
        .where('id', '=', row.id)
        .execute();
    }
    ids[a.key] = row.id;
    usr[a.key] = name;
    passwords[a.key] = password;
  }
  await ctx.repos.accounts.addGroupMember(ids.G1!, ids.D1!);

  // Telemetry: plants, dataloggers, devices, samples, alarms; every text field marked.
  const plants: Fixture['plants'] = {};
  const dataloggers: Fixture['dataloggers'] = {};
  const devices: Fixture['devices'] = {};
  const def = getDefinition(DEVCODE)!;
  const tz = 28800;
  const bound: Array<{ key: ObjectKey; owner: string; admin: string; vendor: string; unit: Unit }> = [
    { key: 'A1', owner: 'O1', admin: 'D1', vendor: 'M1', unit: 'A1' },
    { key: 'A1X', owner: 'O1', admin: 'D1', vendor: 'M1', unit: 'A1X' },
    { key: 'A2', owner: 'O2', admin: 'D1', vendor: 'M1', unit: 'A2' },
    { key: 'B', owner: 'O3', admin: 'D2', vendor: 'M2', unit: 'B' },
  ];
  let alarms = 0;
  for (const b of bound) {
    const m = markers[b.unit];
    const pid = await insertPlant(db, {
      owner_id: ids[b.owner]!,
      name: `${m} plant`,
      now,
      tz_offset: tz,
      lon: 114,
      lat: 22,
    });
    await db
      .updateTable('projects')
      .set({
        remark: `${m} remark`,
        address: `${m} street`,
        city: `${m} city`,
        installer: `${m} installer`,
        design_company: `${m} design`,
      })
      .where('id', '=', pid)
      .execute();
    plants[b.key] = { pid, unit: b.unit };
    const pn = `${m.toUpperCase().replace('-', '')}PN`.slice(0, 24);
    const dlId = await insertDatalogger(db, {
      pn,
      now,
      owner_id: ids[b.owner]!,
      admin_id: ids[b.admin]!,
      vendor_id: ids[b.vendor]!,
      project_id: pid,
      tz_offset: tz,
      alias: `${m} datalogger`,
    });
    await db
      .updateTable('dataloggers')
      .set({ address: `${m} dl address`, city: `${m} dl city` })
      .where('id', '=', dlId)
      .execute();
    dataloggers[b.key] = { id: dlId, pn, unit: b.unit };
    const sn = `${m.toUpperCase().replace('-', '')}SN`;
    const devId = await insertDevice(db, {
      datalogger_id: dlId,
      pn,
      devcode: DEVCODE,
      devaddr: 1,
      sn,
      now,
      project_id: pid,
      alias: `${m} device`,
    });
    devices[b.key] = { id: devId, pn, devcode: DEVCODE, devaddr: 1, sn, unit: b.unit };
    await insertSamples(
      db,
      def,
      devId,
      [
        { ts: now - 3_600_000, values: syntheticValues(def, { phase: 0.3, energy: { generated: 100 } }) },
        { ts: now - 60_000, values: syntheticValues(def, { phase: 0.5, energy: { generated: 101 } }) },
      ],
      tz,
    );
    const alarm = await db
      .insertInto('alarms')
      .values({
        datalogger_id: dlId,
        device_id: devId,
        level: 1,
        code: 7,
        description: `${m} alarm`,
        started_at: now - 30 * 60_000,
        ended_at: null,
        handled: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    devices[b.key]!.alarmId = Number(alarm.id);
    alarms += 1;
  }
  for (const u of [
    { key: 'AU' as const, admin: 'D1', vendor: 'M1', unit: 'AU' as const },
    { key: 'BU' as const, admin: 'D2', vendor: 'M2', unit: 'BU' as const },
  ]) {
    const m = markers[u.unit];
    const pn = `${m.toUpperCase().replace('-', '')}PN`.slice(0, 24);
    const id = await insertDatalogger(db, {
      pn,
      now,
      admin_id: ids[u.admin]!,
      vendor_id: ids[u.vendor]!,
      alias: `${m} unbound datalogger`,
    });
    dataloggers[u.key] = { id, pn, unit: u.unit };
  }
  await db.insertInto('viewer_projects').values({ viewer_id: ids.V1!, project_id: plants.A1!.pid }).execute();
  await db.insertInto('viewer_projects').values({ viewer_id: ids.V2!, project_id: plants.A2!.pid }).execute();
  await db.insertInto('viewer_projects').values({ viewer_id: ids.V3!, project_id: plants.B!.pid }).execute();

  // Sessions of every caller, signed in over HTTP like a client.
  const sessions: Fixture['sessions'] = {};
  const callerAccounts: Array<[CallerKey, string]> = [
    ['OP', 'OP'],
    ['M1', 'M1'],
    ['D1', 'D1'],
    ['G1', 'G1'],
    ...SUBADMINS.map((s) => [s.key as CallerKey, s.key] as [CallerKey, string]),
    ['O1', 'O1'],
    ['O2', 'O2'],
    ['V1', 'V1'],
    ['D2', 'D2'],
    ['O3', 'O3'],
    ['DISABLED', 'ODIS'],
  ];
  for (const [caller, key] of callerAccounts) {
    const res = await httpLogin(served.url, usr[key]!, passwords[key]!, nextSalt(), nextIp());
    if (res.err !== 0 || !res.dat) throw new Error(`fixture: sign-in of ${key} failed: ${JSON.stringify(res)}`);
    sessions[caller] = { token: res.dat.token, secret: res.dat.secret };
  }
  {
    // Every button caller is account SAB under the role of the cell (one session, signed in once).
    const res = await httpLogin(served.url, usr.SAB!, passwords.SAB!, nextSalt(), nextIp());
    if (res.err !== 0 || !res.dat) throw new Error(`fixture: sign-in of SAB failed: ${JSON.stringify(res)}`);
    for (const c of BUTTON_CALLERS) sessions[c] = { token: res.dat.token, secret: res.dat.secret };
  }
  // User groups and custom roles, through the actions (their tables belong to other modules).
  const setupProblems: string[] = [];
  const groups: Fixture['groups'] = {};
  const roles: Fixture['roles'] = {};
  for (const [key, admin, unit] of [
    ['GA', 'D1', 'A'],
    ['GB', 'D2', 'B'],
  ] as const) {
    const m = markers[unit];
    const g = await wireCall(
      served.url,
      sessions[admin],
      'addUsrGroup',
      { name: `${m} group`, note: `${m} note` },
      nextSalt(),
      nextIp(),
    );
    if (g.env.err === 0) groups[key] = (g.env.dat as { groupid: number }).groupid;
    else setupProblems.push(`addUsrGroup for ${key}: err ${g.env.err} ${g.env.desc}`);
    const r = await wireCall(
      served.url,
      sessions[admin],
      'addRole',
      { name: `${m} role`, desc: `${m} role description`, functions: 'device_manag,device_list' },
      nextSalt(),
      nextIp(),
    );
    if (r.env.err === 0) roles[key === 'GA' ? 'RA' : 'RB'] = (r.env.dat as { rid: number }).rid;
    else setupProblems.push(`addRole for ${key}: err ${r.env.err} ${r.env.desc}`);
  }
  // Sub-administrators get their rights from a custom role of D1 bound to them (addRole +
  // assignRole, as an administrator does), not from the legacy permissions column.
  const subAdminRoles: Record<string, number> = {};
  const bindings: Array<[string, string]> = [
    ...SUBADMINS.map((s): [string, string] => [s.key, s.key]),
    ...BUTTON_CALLERS.map((c): [string, string] => [c, 'SAB']),
  ];
  for (const [roleKey, account] of bindings) {
    const functions = roleFunctionsOf(roleKey as CallerKey) ?? [];
    const r = await wireCall(
      served.url,
      sessions.D1,
      'addRole',
      { name: `${markers.A} ${roleKey}`, desc: `${markers.A} role of ${roleKey}`, functions: functions.join(',') },
      nextSalt(),
      nextIp(),
    );
    if (r.env.err !== 0) {
      setupProblems.push(`addRole for ${roleKey}: err ${r.env.err} ${r.env.desc}`);
      continue;
    }
    subAdminRoles[roleKey] = (r.env.dat as { rid: number }).rid;
    // SAB rests on the empty role (SA_none's) between the cells of the button axis.
    if (account === 'SAB' && roleKey !== BUTTON_CALLERS[0]) continue;
    const rid = account === 'SAB' ? subAdminRoles.SA_none! : subAdminRoles[roleKey]!;
    const a = await wireCall(served.url, sessions.D1, 'assignRole', { uid: ids[account]!, rid }, nextSalt(), nextIp());
    if (a.env.err !== 0) setupProblems.push(`assignRole ${roleKey} to ${account}: err ${a.env.err} ${a.env.desc}`);
  }
  // Orders: one stock datalogger each, sold by the manufacturer to the distributor.
  const orders: Fixture['orders'] = {};
  const hasOrders = (await db.introspection.getTables()).some((t) => t.name === 'datalogger_orders');
  for (const o of [
    { key: 'OA' as const, dl: 'AO' as const, admin: 'D1', vendor: 'M1' as const, unit: 'AU' as const },
    { key: 'OB' as const, dl: 'BO' as const, admin: 'D2', vendor: 'M2' as const, unit: 'BU' as const },
  ]) {
    const m = markers[o.unit];
    const pn = `${m.toUpperCase().replace('-', '')}OR`.slice(0, 24);
    const id = await insertDatalogger(db, {
      pn,
      now,
      admin_id: ids[o.admin]!,
      vendor_id: ids[o.vendor]!,
      alias: `${m} order datalogger`,
    });
    dataloggers[o.dl] = { id, pn, unit: o.unit };
    if (!hasOrders) {
      setupProblems.push('datalogger_orders: no such table (migration 0008 missing)');
      continue;
    }
    const orderNo = `ORD-${o.key}-${hex(3)}`;
    const raw = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const row = await raw
      .insertInto('datalogger_orders')
      .values({
        order_no: orderNo,
        vendor_code: vendorCodes[o.vendor],
        dist_id: ids[o.admin]!,
        status: 0,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await raw.insertInto('datalogger_order_items').values({ order_id: row.id, pn }).execute();
    orders[o.key] = orderNo;
  }

  // Who owns each user group and custom role (including those made by addGroupMember for G1).
  const keyOfId = new Map(Object.entries(ids).map(([k, id]) => [id, k]));
  const tables = new Set((await db.introspection.getTables()).map((t) => t.name));
  const adminsOf = async (table: string): Promise<Map<number, string>> => {
    if (!tables.has(table)) return new Map();
    const raw = db as unknown as Kysely<Record<string, { id: number; admin_id: number }>>;
    const rows = await raw.selectFrom(table).select(['id', 'admin_id']).execute();
    return new Map(rows.map((r) => [Number(r.id), keyOfId.get(Number(r.admin_id)) ?? `#${r.admin_id}`]));
  };
  const groupAdmins = await adminsOf('user_groups');
  const roleAdmins = await adminsOf('custom_roles');

  // The disabled account keeps a token it obtained while enabled: it must stop working at once.
  await db.updateTable('accounts').set({ status: ACCOUNT_STATUS.DISABLED }).where('id', '=', ids.ODIS!).execute();
  ids.DISABLED = ids.ODIS!;
  usr.DISABLED = usr.ODIS!;

  return {
    markers,
    ids,
    usr,
    passwords,
    sessions,
    plants,
    dataloggers,
    devices,
    alarms,
    groups,
    roles,
    groupAdmins,
    roleAdmins,
    subAdminRoles,
    orders,
    setupProblems,
    vendorCodes,
    dealerCodes,
  };
}
