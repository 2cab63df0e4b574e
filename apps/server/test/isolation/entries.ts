import { rc4EncryptHex, sha1Hex, type ActionName } from '@sunwatch/protocol';
import type { CallerKey, Fixture, ObjectKey } from './fixture.js';
import { zipSync, strToU8 } from 'fflate';
import { PNG } from 'pngjs';
import { ROLE_OF } from './model.js';
import { accountKeyOf, MISSING, type Outcome, type RefKey, type RefKind, type WireParams } from './model.js';
import type { WireFile } from './wire.js';

/**
 * One entry per catalogue action (the `satisfies` below makes the compiler demand it, and
 * matrix.test.ts fails at run time naming any action without one). An entry says only what the
 * catalogue cannot: the kind of object the call names, how to build its parameters for a
 * reference, and extra success codes. Auth kind, roles, module permission and `mutates` come from
 * the catalogue itself.
 */
export interface CellContext {
  fx: Fixture;
  caller: CallerKey;
  ref: RefKey;
  /** Today in the plants' timezone: YYYY-MM-DD, YYYY-MM, YYYY. */
  day: string;
  month: string;
  year: string;
}

export interface MatrixEntry {
  ref: RefKind;
  params: (c: CellContext) => WireParams;
  /** Codes that also mean success for a visible reference (e.g. 12 "no record"). */
  okCodes?: readonly number[];
  /** List totals that must equal what the caller may see. */
  counts?: ReadonlyArray<{ kind: 'plant' | 'datalogger' | 'device'; read: (dat: unknown) => number }>;
  /**
   * Mutating actions that only change the calling account's own state (its sessions, password,
   * followed devices): every role may call them, viewers included. The reason is required.
   */
  personal?: string;
  /**
   * The action only reads the referenced account: its reach is the caller's read scope (a group
   * account reads its members' accounts) instead of the write scope of management actions.
   */
  read?: true;
  /** The not-found code of this action for a reference out of reach, when not the kind's default. */
  notFound?: number;
  /**
   * An action-specific rule the catalogue cannot express (e.g. "user not created by this admin",
   * 1031), applied to the outcome derived from the catalogue. Keep it to documented rules.
   */
  outcome?: (caller: CallerKey, ref: RefKey, base: Outcome) => Outcome;
  /** Account lists: the uids of the rows; every one must be in the caller's reach, total = rows. */
  accountRows?: (dat: unknown) => { total: number; uids: number[] };
  /** Lists of user groups or roles: only the caller's administrator's, total = rows. */
  adminRows?: { kind: 'group' | 'role'; read: (dat: unknown) => { total: number; ids: number[] } };
  /** Multipart actions: the file to send (field name from the catalogue's upload rule). */
  file?: (c: CellContext) => WireFile;
  /**
   * Read actions with a second documented form (e.g. without an optional reference): that form too,
   * for every caller × its references, with the same checks.
   */
  alsoAs?: Omit<MatrixEntry, 'alsoAs'>;
}

/** An action the matrix does not call, with the reason and where it is tested instead. */
export interface Exempt {
  exempt: string;
}

/** An action that cannot be exercised yet: counted as a FAILURE of the matrix, with the reason. */
export interface NotExercised {
  notExercised: string;
}

export type Entry = MatrixEntry | Exempt | NotExercised;

// ------------------------------------------------------------------------------------------
// Reference → parameters
// ------------------------------------------------------------------------------------------

export function plantid(c: CellContext): WireParams {
  if (c.ref === 'missing') return { plantid: MISSING.pid };
  return { plantid: c.fx.plants[c.ref as ObjectKey]!.pid };
}

export function pn(c: CellContext): WireParams {
  if (c.ref === 'missing') return { pn: MISSING.pn };
  return { pn: c.fx.dataloggers[c.ref as ObjectKey]!.pn };
}

export function tuple(c: CellContext): WireParams {
  if (c.ref === 'missing') return { pn: MISSING.pn, devcode: 5121, devaddr: 1, sn: MISSING.sn };
  const d = c.fx.devices[c.ref as ObjectKey]!;
  return { pn: d.pn, devcode: d.devcode, devaddr: d.devaddr, sn: d.sn };
}

/** Fixture key of an account reference. */
export function accountId(c: CellContext): number {
  if (c.ref === 'missing') return MISSING.uid;
  if (c.ref === 'self') return c.fx.ids[accountKeyOf(c.caller)] ?? MISSING.uid;
  return c.fx.ids[c.ref]!;
}

/** uid of an account reference (owner, emptyOwner, dist, viewer kinds). */
export function uid(c: CellContext): WireParams {
  return { uid: accountId(c) };
}

export function groupid(c: CellContext): WireParams {
  if (c.ref === 'missing') return { groupid: MISSING.uid };
  const id = c.fx.groups[c.ref as 'GA' | 'GB'];
  if (id === undefined) throw new Error(`fixture has no user group ${c.ref}: ${c.fx.setupProblems.join('; ')}`);
  return { groupid: id };
}

export function rid(c: CellContext): WireParams {
  if (c.ref === 'missing') return { rid: MISSING.uid };
  const id = c.fx.roles[c.ref as 'RA' | 'RB'];
  if (id === undefined) throw new Error(`fixture has no role ${c.ref}: ${c.fx.setupProblems.join('; ')}`);
  return { rid: id };
}

/** Tenant B's callers work on tenant B's objects, everyone else on tenant A's. */
function side(c: CellContext): 'A' | 'B' {
  return c.caller === 'D2' || c.caller === 'O3' ? 'B' : 'A';
}

/** A short code (letters, digits) that is the same for a cell on every copy. */
function cellCode(c: CellContext, length: number): string {
  const h = sha1Hex(`${c.caller}/${c.ref}`).toUpperCase();
  return `Z${h}`.slice(0, length);
}

/** A new account's username, the same for a cell on every copy (mass-assignment compares copies). */
function newUsr(c: CellContext, prefix: string): string {
  return `${prefix}_${c.caller}_${c.ref}`
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 32);
}

const NEW_PASSWORD = 'Matrix_Pw_2026';
/** pwd / pwdtext of the sub-account actions: RC4 with the caller's session secret. */
function pwd(c: CellContext): WireParams {
  const secret = c.fx.sessions[c.caller]?.secret ?? 'none';
  return { pwd: rc4EncryptHex(secret, sha1Hex(NEW_PASSWORD)), pwdtext: rc4EncryptHex(secret, NEW_PASSWORD) };
}

/** A one-sheet xlsx (inline strings): column A PN, column B alias, no header. */
export function xlsx(rows: ReadonlyArray<readonly [string, string]>): Uint8Array {
  const esc = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const cells = rows
    .map(
      ([a, b], i) =>
        `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>${esc(a)}</t></is></c><c r="B${i + 1}" t="inlineStr"><is><t>${esc(b)}</t></is></c></row>`,
    )
    .join('');
  const ns = 'http://schemas.openxmlformats.org';
  return zipSync({
    '[Content_Types].xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="${ns}/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
    ),
    '_rels/.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${ns}/spreadsheetml/2006/main" xmlns:r="${ns}/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    'xl/worksheets/sheet1.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${ns}/spreadsheetml/2006/main"><sheetData>${cells}</sheetData></worksheet>`,
    ),
  });
}

/** The stock datalogger the caller's side distributes (D1's AU, D2's BU). */
function stockPn(c: CellContext): string {
  return c.fx.dataloggers[side(c) === 'B' ? 'BU' : 'AU']!.pn;
}

/** Account list replies: rows under `key`, each with its uid. */
const rowsOf =
  (key: string) =>
  (dat: unknown): { total: number; uids: number[] } => {
    const d = dat as { total: number } & Record<string, Array<{ uid: number }>>;
    return { total: d.total, uids: (d[key] ?? []).map((r) => r.uid) };
  };

/** Distribution targets must be created by the caller's administrator (1031, "user not created by this admin"). */
const createdByAdmin = (caller: CallerKey, _ref: RefKey, base: Outcome): Outcome =>
  base.ok && caller === 'M1' ? { ok: false, code: 1031, why: 'the owners were created by D1, not by M1' } : base;

const none = (): WireParams => ({});
const plant = (extra: (c: CellContext) => WireParams = none): MatrixEntry => ({
  ref: 'plant',
  params: (c) => ({ ...plantid(c), ...extra(c) }),
});
const device = (extra: (c: CellContext) => WireParams = none): MatrixEntry => ({
  ref: 'device',
  params: (c) => ({ ...tuple(c), ...extra(c) }),
});
const total = (dat: unknown): number => (dat as { total: number }).total;
const EXPORT = "a report export is a file of the caller's own (export_files of the caller) read from what it may see";
const REPORT = "a report file is the caller's own (report_files of the caller), built from what it may see";
/** The helpform form of a device reference: SN and address twice, its device code, the dates. */
const helpform =
  (dates: (c: CellContext) => WireParams) =>
  (c: CellContext): WireParams => {
    const t = tuple(c);
    return { sn2: t.sn!, devaddr2: t.devaddr!, ...dates(c) };
  };

/** A 4×4 PNG (a plant picture). */
function tinyPng(): Uint8Array {
  const png = new PNG({ width: 4, height: 4 });
  png.data.fill(200);
  return new Uint8Array(PNG.sync.write(png));
}
/** Plant owners create plants for themselves; administrators name an owner of their side. */
const plantOwnerParam = (c: CellContext): WireParams =>
  ROLE_OF[c.caller] === 0 ? {} : { uid: c.fx.ids[side(c) === 'B' ? 'O3' : 'O1']! };
/** Owners and viewers are refused the plant count (vendor 0x0008 "Refusal (Plant owner)"). */
const refusedToOwners = (caller: CallerKey, _ref: RefKey, base: Outcome): Outcome =>
  base.ok && (ROLE_OF[caller] === 0 || ROLE_OF[caller] === 5)
    ? { ok: false, code: 8, why: 'plant owners are refused' }
    : base;
const PUSH = "an e-mail push subscription is the caller's own (email_push of the caller) over plants it may see";
const QR = 'a QR key is scanned or confirmed for the calling account only (its own sign-in elsewhere)';
const FOLLOW = "following is the caller's own view state (device_follows of the caller), not a change of the device";

export const ENTRIES = {
  // ---------------------------------------------------------------- sign-in and session
  auth: { exempt: 'sign-in (login-signed with the password digest, no session): test/auth/*.test.ts' },
  authSource: { exempt: 'sign-in (login-signed with the password digest, no session): test/auth/*.test.ts' },
  authByRememberToken: {
    exempt: 'public sign-in with a remember-me token, no session: test/auth/auth-hardening.test.ts',
  },
  logout: {
    ref: 'none',
    params: none,
    personal: 'revokes only the calling token',
  },
  logoutVerifiction: { ref: 'none', params: none, okCodes: [12] },
  updateToken: {
    ref: 'none',
    params: none,
    personal: 'rotates only the calling token',
  },
  updatePassword: {
    ref: 'none',
    params: (c) => {
      const old = sha1Hex(c.fx.passwords[c.caller === 'DISABLED' ? 'ODIS' : c.caller] ?? 'x');
      return { newpwd: rc4EncryptHex(old, sha1Hex(`New_${c.caller}_Pw2026`)) };
    },
    personal: "changes only the caller's own password",
  },
  queryAccountInfo: { ref: 'account', params: (c): WireParams => (c.ref === 'self' ? {} : { uid: accountId(c) }) },

  // ---------------------------------------------------------------- account management (issue 9)
  editAccount: {
    ref: 'none',
    params: () => ({ qname: 'edited name', desc: 'edited description' }),
    personal: "edits only the caller's own profile",
  },
  uploadAvatar: {
    ref: 'none',
    params: none,
    file: () => ({ name: 'avatar.png', bytes: tinyPng() }),
    personal: "stores a picture for the caller's own profile",
  },
  disableOrEnableAccount: { ref: 'owner', params: (c) => ({ ...uid(c), enable: 'false' }) },
  webQueryUsrEs: { ref: 'none', params: () => ({ pagesize: 50 }), accountRows: rowsOf('account') },
  // `zz` matches every marker (usernames, nicknames, e-mail of both tenants): only reachable rows may come back.
  adminQueryUsrAccount: { ref: 'none', params: () => ({ usr: 'zz', pagesize: 50 }), accountRows: rowsOf('account') },
  editSubAccount: { ref: 'owner', params: (c) => ({ ...uid(c), qname: 'edited by admin', desc: 'edited' }) },
  addDist: {
    ref: 'none',
    params: (c) => ({ usr: newUsr(c, 'nd'), ...pwd(c), qname: 'new dealer', vcode: cellCode(c, 3) }),
  },
  editDist: { ref: 'dist', params: (c) => ({ ...uid(c), qname: 'edited dealer' }) },
  delDist: { ref: 'dist', params: uid },
  queryDists: { ref: 'none', params: () => ({ pagesize: 50 }), accountRows: rowsOf('dist') },
  addPlantOwner: { ref: 'none', params: (c) => ({ usr: newUsr(c, 'no'), ...pwd(c), qname: 'new owner' }) },
  queryPlantOwners: { ref: 'none', params: () => ({ pagesize: 50 }), accountRows: rowsOf('plantOwner') },
  querySubUsrPlantOwners: {
    read: true,
    ref: 'dist',
    params: (c) => ({ ...uid(c), pagesize: 50 }),
    okCodes: [12],
    accountRows: rowsOf('plantOwner'),
    // the vendor form: page and pagesize only (the owners under the caller's subordinate accounts)
    alsoAs: { read: true, ref: 'none', params: () => ({ pagesize: 50 }), accountRows: rowsOf('plantOwner') },
  },
  // accounts: a user group out of reach answers 11 'groupid' here (groups.service answers 369).
  addGroupAccount: {
    ref: 'group',
    params: (c) => ({ usr: newUsr(c, 'ng'), ...pwd(c), ...groupid(c) }),
  },
  addSubAdmin: {
    ref: 'role',
    params: (c) => ({ usr: newUsr(c, 'ns'), ...pwd(c), ...rid(c) }),
    // A sub-administrator cannot hand out function points it lacks (accounts: 11 'rid'); the
    // fixture's roles grant device management, which SA_account_manag does not hold.
    outcome: (caller, _ref, base) =>
      base.ok && caller.startsWith('SA_')
        ? { ok: false, code: 11, why: 'role grants functions the caller lacks' }
        : base,
  },
  delAccount: { ref: 'emptyOwner', params: uid },
  resetAccountPassword: { ref: 'owner', params: (c) => ({ ...uid(c), ...pwd(c) }) },
  setAccountAddCollector: { ref: 'owner', params: (c) => ({ ...uid(c), enable: 'false' }) },
  relateOwner: {
    ref: 'emptyOwner',
    params: (c) => ({ ...uid(c), puid: c.fx.ids[side(c) === 'B' ? 'DSB' : 'DS1']! }),
  },
  queryUsrGroups: {
    ref: 'none',
    params: () => ({ pagesize: 50 }),
    adminRows: {
      kind: 'group',
      read: (d) => {
        const x = d as { total: number; group: Array<{ groupid: number }> };
        return { total: x.total, ids: x.group.map((g) => g.groupid) };
      },
    },
  },
  addUsrGroup: { ref: 'none', params: (c) => ({ name: newUsr(c, 'group'), note: 'matrix' }) },
  editUsrGroup: { ref: 'group', params: (c) => ({ ...groupid(c), note: 'edited note' }) },
  delUsrGroup: { ref: 'group', params: groupid },
  moveAccountGroup: { ref: 'owner', params: (c) => ({ ...uid(c), groupid: '' }) },
  queryRoles: {
    ref: 'none',
    params: () => ({ pagesize: 50 }),
    adminRows: {
      kind: 'role',
      read: (d) => {
        const x = d as { total: number; role: Array<{ rid: number }> };
        return { total: x.total, ids: x.role.map((r) => r.rid) };
      },
    },
  },
  addRole: { ref: 'none', params: (c) => ({ name: newUsr(c, 'role'), desc: 'matrix', functions: 'account_list' }) },
  editRole: { ref: 'role', params: (c) => ({ ...rid(c), desc: 'edited role' }) },
  delRole: { ref: 'role', params: rid },
  assignRole: { ref: 'role', params: (c) => ({ uid: c.fx.ids[side(c) === 'B' ? 'DSB' : 'DS1']!, ...rid(c) }) },
  queryDeviceCtrlFieldForDist: { ref: 'none', params: () => ({ devcode: 5121 }) },
  editDeviceCtrlFieldForDist: {
    ref: 'none',
    params: () => ({ devcode: 5121, id: 'sys_remote_switch', visable: 'false', distributorPermissionFlag: 'false' }),
  },
  addPlantBrowser: {
    ref: 'plant',
    params: (c) => ({ usr: newUsr(c, 'nv'), ...pwd(c), pid: plantid(c).plantid! }),
    // A group account reads its members' plants, but sharing one is a write on the member's data
    // (viewers.service requirePlants): it shares only plants of its own subtree, and holds none.
    outcome: (caller, _ref, base) =>
      base.ok && caller === 'G1'
        ? { ok: false, code: 260, why: "a group account cannot share its members' plants" }
        : base,
  },
  editPlantBrowser: { ref: 'viewer', params: (c) => ({ ...uid(c), desc: 'edited viewer' }) },
  delPlantBrowser: { ref: 'viewer', params: uid },
  queryPlantBrowsers: { ref: 'none', params: () => ({ pagesize: 50 }), accountRows: rowsOf('browser') },
  distAddCollector: {
    ref: 'none',
    params: (c) => ({ Dpn: cellCode(c, 14), alias: 'matrix stock' }),
    // The operator holds no stock (distribution.service addToStock: 1025 unless distributor or manufacturer).
    outcome: (caller, _ref, base) =>
      base.ok && caller === 'OP' ? { ok: false, code: 1025, why: 'operator has no stock' } : base,
  },
  distributeCollector: {
    ref: 'owner',
    params: (c) => ({ ...uid(c), pn: stockPn(c) }),
    notFound: 261,
    outcome: createdByAdmin,
  },
  distributeCollectorBySheet: {
    ref: 'owner',
    params: uid,
    file: (c) => ({ name: 'assign.xlsx', bytes: xlsx([[stockPn(c), 'from sheet']]) }),
    notFound: 261,
    outcome: createdByAdmin,
  },
  distributeCollectorByOrder: {
    ref: 'owner',
    params: (c) => {
      const order = c.fx.orders[side(c) === 'B' ? 'OB' : 'OA'];
      if (order === undefined) throw new Error(`fixture has no order: ${c.fx.setupProblems.join('; ')}`);
      return { ...uid(c), orderNo: order };
    },
    notFound: 261,
    // The order is checked before the target: M1 did not buy D1's order (7, spec §8).
    outcome: (caller, _ref, base) =>
      caller === 'M1' && (base.ok || base.code === 261) ? { ok: false, code: 7, why: "D1's order is not M1's" } : base,
  },

  // ---------------------------------------------------------------- plants
  queryPlants: { ref: 'none', params: () => ({ pagesize: 50 }), counts: [{ kind: 'plant', read: total }] },
  queryPlantsInfo: {
    ref: 'none',
    params: none,
    counts: [{ kind: 'plant', read: (d) => (d as { info: unknown[] }).info.length }],
  },
  webQueryPlants: { ref: 'none', params: () => ({ pagesize: 50 }), counts: [{ kind: 'plant', read: total }] },
  webQueryPlantsMap: {
    ref: 'none',
    params: none,
    counts: [{ kind: 'plant', read: total }],
  },
  queryPlantInfo: plant(),
  queryPlantDeviceStatus: plant(),
  queryPlantCurrentData: plant(() => ({ par: 'ENERGY_TODAY,ENERGY_TOTAL,CURRENT_POWER' })),
  queryPlantDeviceDesignatedInformation: plant(() => ({ devtype: 512, parameter: 'pv_output_power' })),
  queryPlantActiveOuputPowerOneDay: plant((c) => ({ date: c.day })),
  queryPlantEnergyMonthPerDay: plant((c) => ({ date: c.month })),
  queryPlantEnergyYearPerMonth: plant((c) => ({ date: c.year })),
  queryPlantEnergyTotalPerYear: plant(),
  queryPlantEnergyDay: plant((c) => ({ date: c.day })),
  queryPlantEnergyMonth: plant((c) => ({ date: c.month })),
  queryPlantEnergyYear: plant((c) => ({ date: c.year })),
  queryPlantEnergyTotal: plant(),
  queryPlantActiveOuputPowerCurrent: plant(),
  queryPlantDeviceChartsFieldsByType: plant(() => ({ devtype: 512, devcode: 5121 })),

  // issue 10: plant management (plants-admin.ts)
  addPlant: {
    ref: 'none',
    params: (c) => ({ name: `matrix plant ${c.caller}`, 'address.timezone': 3600, ...plantOwnerParam(c) }),
  },
  editPlant: plant(() => ({ remark: 'edited by the matrix', 'profit.feedProfit': '0.05' })),
  // Every fixture plant still has dataloggers: a caller who may delete it gets 517 (the refusal
  // itself is tested in test/plants/plants-admin.test.ts); 517 counts as the allowed answer.
  delPlant: { ...plant(), okCodes: [517] },
  editPlantEnergyOffset: plant(() => ({ energyOffset: '12.5' })),
  uploadPlantImage: { ref: 'none', params: none, file: () => ({ name: 'plant.png', bytes: tinyPng() }) },
  queryPlantCount: {
    ref: 'none',
    params: none,
    outcome: refusedToOwners,
    counts: [{ kind: 'plant', read: (d) => (d as { count: number }).count }],
  },
  queryPlantsProfitOneDay: { ref: 'none', params: () => ({ pagesize: 50 }), counts: [{ kind: 'plant', read: total }] },
  queryPlantsEnergyYear: { ref: 'none', params: (c) => ({ date: c.year }) },
  queryPlantsEnergyMonthPerDay: { ref: 'none', params: (c) => ({ date: c.month }) },
  queryPlantsEnergyYearPerMonth: { ref: 'none', params: (c) => ({ date: c.year }) },
  queryPlantEnvMonitor: { ...plant(), okCodes: [265] },
  queryPlantDeviceView: plant(),

  // ---------------------------------------------------------------- dataloggers
  webQueryCollectorsEs: {
    ref: 'none',
    params: () => ({ pagesize: 50 }),
    counts: [{ kind: 'datalogger', read: total }],
  },
  queryCollectors: { ref: 'none', params: () => ({ pagesize: 50 }), counts: [{ kind: 'datalogger', read: total }] },
  queryCollectorInfo: { ref: 'datalogger', params: pn },
  queryCollectorStatus: { ref: 'datalogger', params: pn },
  // A visible datalogger without devices (the unbound AU / BU) answers 258 "no device" (vendor
  // convention); a foreign or missing PN must still answer 257.
  queryCollectorDevices: { ref: 'datalogger', params: pn, okCodes: [258] },

  // ---------------------------------------------------------------- datalogger management (issue 10)
  // The fixture's dataloggers hold no MQTT connection: a command to a visible one answers 263
  // ("datalogger offline") at once; a foreign or missing PN still 257. Commands over a live
  // connection: test/dataloggers/commands.test.ts.
  addCollectorToPlant: { ...plant((c) => ({ pn: stockPn(c), alias: 'matrix bound' })) },
  addCollectorsBySheet: {
    ref: 'none',
    // Owners bind to one of their plants; administrators add to their stock (plantid unused).
    params: (c): WireParams =>
      c.caller === 'O1' || c.caller === 'O2' || c.caller === 'O3'
        ? { plantid: c.fx.plants[c.caller === 'O1' ? 'A1' : c.caller === 'O2' ? 'A2' : 'B']!.pid }
        : {},
    file: (c) => ({ name: 'add.xlsx', bytes: xlsx([[cellCode(c, 14), 'matrix batch']]) }),
  },
  editCollectorEs: { ref: 'datalogger', params: (c) => ({ ...pn(c), alias: 'matrix edited alias' }) },
  restartCollector: { ref: 'datalogger', params: pn, okCodes: [263] },
  resetCollector: { ref: 'datalogger', params: (c) => ({ ...pn(c), confirm: 'YES' }), okCodes: [263] },
  unbindCollector: { ref: 'datalogger', params: (c) => ({ ...pn(c), confirm: 'YES' }), okCodes: [263] },
  delCollector: { ref: 'datalogger', params: pn },
  debugCollector: {
    ref: 'datalogger',
    params: (c) => ({ ...pn(c), addr: 1, step: '0', cmd: 'AA BB CC' }),
    okCodes: [263],
  },
  webQueryCollectorLog: { ref: 'datalogger', params: (c) => ({ ...pn(c), sdate: c.day, edate: c.day }) },
  queryGprsCollector: { ref: 'none', params: () => ({ pagesize: 50 }) },
  queryCollectorDetail: { ref: 'datalogger', params: pn },

  // ---------------------------------------------------------------- devices
  webQueryDeviceEs: { ref: 'none', params: () => ({ pagesize: 50 }), counts: [{ kind: 'device', read: total }] },
  queryDeviceInfo: device(),
  queryDeviceStatus: device(),
  queryDeviceLastData: device(),
  querySPDeviceLastData: device(),
  webQueryDeviceEnergyFlowEs: device(),
  queryDeviceParsEs: device(),
  queryDeviceChartsFieldsEs: device(),
  querySPKeyParameters: device(),
  queryDeviceRealLastData: device(),
  queryDeviceChartFieldDetailData: device((c) => ({
    field: 'pv_output_power',
    sdate: `${c.day} 00:00:00`,
    edate: `${c.day} 23:59:59`,
  })),
  querySPDeviceKeyParameterOneDay: device((c) => ({ parameter: 'PV_OUTPUT_POWER', date: c.day })),
  queryDeviceDataOneDay: device((c) => ({ date: c.day })),
  queryDeviceDataOneDayPaging: device((c) => ({ date: c.day })),
  queryDeviceActiveOuputPowerOneDay24Hour: device((c) => ({ date: c.day })),
  webQueryDeviceStatistic: device(),
  webQueryDeviceEnergyChart: device(() => ({ view: 'month' })),
  webQueryDeviceParamCurves: device((c) => ({ fields: 'pv_output_power', sdate: c.day, edate: c.day })),
  focusDevice: { ...device(), personal: FOLLOW },
  unfocusDevice: { ...device(), personal: FOLLOW },

  // ---------------------------------------------------------------- device operations (issue 10)
  // Commands wait up to 10 s for an ack; the fixture's dataloggers are not connected, so the cells
  // that would send one carry a value refused after every access check (6 / 9): the access
  // outcome (10, 11, 258) is what the matrix proves; test/devices/ proves the commands themselves.
  queryDeviceCtrlField: device(),
  queryDeviceCtrlValue: { ...device(() => ({ id: 'no_such_control' })), okCodes: [9] },
  ctrlDevice: { ...device(() => ({ id: 'sys_remote_switch', val: 'x' })), okCodes: [6] },
  sendCmdToDevice: { ...device(() => ({ cmd: 'ZZ' })), okCodes: [6] },
  queryDeviceCtrlPwd: { ref: 'none', params: (c): WireParams => (c.caller === 'OP' ? { vendor: c.fx.ids.M1! } : {}) },
  setDeviceCtrlPwd: {
    ref: 'none',
    params: (c): WireParams =>
      c.caller === 'OP' ? { pwd: 'Matrix_pwd1', vendor: c.fx.ids.M1! } : { pwd: 'Matrix_pwd1' },
  },
  editDeviceInfo: device(() => ({ alias: 'Matrix alias' })),
  delDeviceFromPlant: { ...device(), okCodes: [271] },
  querySPDeviceKeyParameterTotalPerYear: { ...device(() => ({ parameter: 'PV_ENERGY_TOTAL' })), okCodes: [12] },
  exportDeviceReport: {
    ...device((c) => ({ sdate: c.day, edate: '2020-01-01' })),
    okCodes: [6],
    personal: EXPORT,
  },
  webQueryExportFiles: { ref: 'none', params: () => ({ pagesize: 50 }) },
  queryExportFileUrl: { ref: 'none', params: () => ({ id: MISSING.uid }), okCodes: [12] },
  delExportFile: { ref: 'none', params: () => ({ id: MISSING.uid }), okCodes: [12], personal: EXPORT },
  retryExportFile: { ref: 'none', params: () => ({ id: MISSING.uid }), okCodes: [12], personal: EXPORT },
  syncDeviceData: { ...device(helpform((c) => ({ sdate: c.day, edate: '2020-01-01' }))), okCodes: [6] },
  recalcDeviceData: device(helpform((c) => ({ sdate: c.day, edate: c.day }))),
  webQueryOperationLog: device(),
  // issue 11: reports and exports (own files only; the builder re-checks access when it runs)
  exportPlantReport: { ...plant(() => ({ type: 'total' })), personal: REPORT },
  exportDeviceEnergyReport: { ...device(() => ({ type: 'total' })), personal: REPORT },
  webQueryReportFiles: { ref: 'none', params: () => ({ pagesize: 50 }) },
  queryReportFileUrl: { ref: 'none', params: () => ({ id: MISSING.uid }), okCodes: [12] },
  delReportFile: { ref: 'none', params: () => ({ id: MISSING.uid }), okCodes: [12], personal: REPORT },
  // the alarm list export: the fleet list's scope; a plant without alarms has nothing to export (264)
  exportPlantsWarning: { ...plant(), okCodes: [264], personal: REPORT },

  // ---------------------------------------------------------------- notifications (issue 11)
  queryEmailPush: { ref: 'none', params: () => ({ pagesize: 50 }) },
  addEmailPush: {
    ...plant(),
    params: (c) => ({ email: 'matrix@example.com', pid: plantid(c).plantid!, level: '0,2' }),
    personal: PUSH,
  },
  editEmailPush: { ref: 'none', params: () => ({ id: MISSING.uid, level: '1' }), okCodes: [12], personal: PUSH },
  delEmailPush: { ref: 'none', params: () => ({ id: MISSING.uid }), okCodes: [12], personal: PUSH },
  queryMailOutbox: { ref: 'none', params: () => ({ pagesize: 50 }) },
  resendMail: { ref: 'none', params: () => ({ id: MISSING.uid }), okCodes: [12] },

  // ---------------------------------------------------------------- self-service (issue 12)
  getPictureCode: { exempt: 'public, no session (entry page): test/selfservice/selfservice.test.ts' },
  sendSmsCodeMobile: { exempt: 'public signup code, no session: test/selfservice/selfservice.test.ts' },
  sendSmsCode: { exempt: 'public password-reset code, no session: test/selfservice/selfservice.test.ts' },
  confirmSmsCode: { exempt: 'public password-reset step, no session: test/selfservice/selfservice.test.ts' },
  smsCodeUpdatePassword: { exempt: 'public password reset by code, no session: test/selfservice/selfservice.test.ts' },
  regBindMobileUsually: { exempt: 'public signup, no session: test/selfservice/selfservice.test.ts' },
  regBindMailboxUsually: { exempt: 'public signup, no session: test/selfservice/selfservice.test.ts' },
  reg: { exempt: 'vendor signup, signed with the RC4 password, no session: test/selfservice/reg.test.ts' },
  sendBindCode: {
    ref: 'none',
    params: () => ({ purpose: 'bind', channel: '0', mobile: '13912345678' }),
    okCodes: [524, 525],
    personal: "sends a code for the caller's own binding",
  },
  bindMobile: {
    ref: 'none',
    params: () => ({ mobile: '13912345678', smsCode: '000000' }),
    okCodes: [512],
    personal: "binds the caller's own phone",
  },
  bindEmail: {
    ref: 'none',
    params: () => ({ email: 'matrix.bind@example.com', smsCode: '000000' }),
    okCodes: [512],
    personal: "binds the caller's own email",
  },
  unbindMobile: {
    ref: 'none',
    params: () => ({ smsCode: '000000' }),
    okCodes: [512, 514],
    personal: "unbinds the caller's own phone",
  },
  unbindEmail: {
    ref: 'none',
    params: () => ({ smsCode: '000000' }),
    okCodes: [512, 514],
    personal: "unbinds the caller's own email",
  },

  // ---------------------------------------------------------------- overview
  webQueryFleetOverview: {
    ref: 'none',
    params: none,
    counts: [
      { kind: 'plant', read: (d) => (d as { plant: { total: number } }).plant.total },
      { kind: 'datalogger', read: (d) => (d as { collector: { total: number } }).collector.total },
      { kind: 'device', read: (d) => (d as { device: { total: number } }).device.total },
    ],
  },

  // ---------------------------------------------------------------- alarms (issue 11)
  // The fixture gives every device one ongoing alarm: visible alarms = visible devices.
  queryDeviceWarning: device(() => ({ pagesize: 50 })),
  queryDeviceWarningCount: device(),
  queryPlantsWarning: { ref: 'none', params: () => ({ pagesize: 50 }), counts: [{ kind: 'device', read: total }] },
  webQueryPlantsWarning: {
    ref: 'none',
    params: () => ({ pagesize: 50 }),
    okCodes: [264],
    counts: [{ kind: 'device', read: total }],
  },
  queryPlantWarningDeviceCount: plant(),
  queryPlantsWarningDeviceCount: {
    ref: 'none',
    params: none,
    counts: [{ kind: 'device', read: (d) => (d as { count: number }).count }],
  },
  ignorePlantWarning: { ...device(), params: (c) => ({ id: alarmId(c) }), notFound: 264 },
  handlePlantWarnings: { ...device(), params: (c) => ({ id: String(alarmId(c)) }), notFound: 264 },
  webQueryWarningStatistic: plant(),
  webQueryWarningRules: { ref: 'none', params: none },
  addWarningRule: { ref: 'none', params: (c) => ({ name: `rule ${c.caller} ${c.ref}`, level: '2', hide: 1 }) },
  // No rule in the fixture: another account's rule answers 12 like a missing one (test/alarms/ proves it).
  editWarningRule: { ref: 'none', params: () => ({ id: MISSING.uid, name: 'renamed' }), okCodes: [12] },
  delWarningRule: { ref: 'none', params: () => ({ id: MISSING.uid }), okCodes: [12] },
  // ---------------------------------------------------------------- entry extras (issue 12)
  retrieveUsrByPnEs: { exempt: 'public account lookup, no session: test/entry-extras/entry-extras.test.ts' },
  validateInvCode: {
    exempt: 'public demo sign-in by experience code, no session: test/entry-extras/entry-extras.test.ts',
  },
  addInvCodeApply: { exempt: 'public application form, no session: test/entry-extras/entry-extras.test.ts' },
  qrLogin: { exempt: 'public QR sign-in poll, no session: test/entry-extras/entry-extras.test.ts' },
  addInvCode: { ref: 'none', params: () => ({ days: 1 }) },
  queryInvCodes: { ref: 'none', params: () => ({ pagesize: 50 }) },
  expireInvCode: { ref: 'none', params: () => ({ id: MISSING.uid }), okCodes: [12] },
  queryInvCodeApplies: { ref: 'none', params: () => ({ pagesize: 50 }) },
  qrScan: { ref: 'none', params: () => ({ key: 'Matrix0000000000000000000000Key1' }), okCodes: [1041], personal: QR },
  qrConfirm: {
    ref: 'none',
    params: () => ({ key: 'Matrix0000000000000000000000Key1', confirm: '1' }),
    okCodes: [1041],
    personal: QR,
  },
  // issue 12: branding (public entry-page helpers read configuration only; writes are the operator's)
  queryDomainListNotLogin: {
    exempt: 'public, before sign-in: the configured node list, no account data: test/branding/*.test.ts',
  },
  queryDomainApp: {
    exempt: 'public, before sign-in: the app links of a host from configuration: test/branding/*.test.ts',
  },
  setPlatformNotice: {
    ref: 'none',
    params: () => ({ clientLanguage: 2, msgType: 2, title: 'Matrix', content: 'Matrix notice' }),
  },
  setConsultParam: {
    ref: 'none',
    params: () => ({ appID: 'matrix.example', phoneNum: '1', email: '', wechat: '', englishName: 'M' }),
  },
  // ---------------------------------------------------------------- upgrade strategies (issue 13)
  // The fixture has no firmware and no strategy: a visible caller reaches the lookup (352 / 12);
  // scoping across two manufacturers is proven in test/upgrade-strategies/strategies.test.ts.
  addUpgradeStrategy: {
    ref: 'none',
    params: () => ({
      name: 'Matrix',
      description: 'd',
      firmware: '00000000000000ff',
      type: 0,
      baudRate: 9600,
      timezone: 0,
      startTime: '2099-01-01 00:00',
      endTime: '2099-02-01 00:00',
      method: 0,
      devices: MISSING.pn,
    }),
    okCodes: [352],
  },
  editUpgradeStrategy: { ref: 'none', params: () => ({ code: 'ST20000101-9999', name: 'Matrix' }), okCodes: [12] },
  cancelUpgradeStrategy: { ref: 'none', params: () => ({ code: 'ST20000101-9999' }), okCodes: [12] },
  resumeUpgradeStrategy: { ref: 'none', params: () => ({ code: 'ST20000101-9999' }), okCodes: [12] },
  queryUpgradeStrategies: { ref: 'none', params: () => ({ pagesize: 50 }) },
  queryUpgradeStrategyDevices: { ref: 'none', params: () => ({ code: 'ST20000101-9999' }), okCodes: [12] },
  queryDeviceSuggestedStrategies: { ref: 'datalogger', params: pn },
  queryUpgradeStrategyCandidates: {
    ref: 'none',
    params: () => ({ pagesize: 50 }),
    counts: [{ kind: 'datalogger', read: total }],
    // Device firmware (type 2): the devices behind the caller's dataloggers (PN:SN picker).
    alsoAs: { ref: 'none', params: () => ({ pagesize: 50, type: 2 }), counts: [{ kind: 'device', read: total }] },
  },
  // ---------------------------------------------------------------- firmware library (issue 13)
  // Library writes are the manufacturer's own (a distributor, even one holding system_settings,
  // gets 11 from the service); a firmware code out of reach answers 352 like a missing one
  // (ownership across two manufacturers: test/firmware/firmware-library.test.ts).
  queryFirmwares: { ref: 'none', params: () => ({ pagesize: 10 }) },
  // An unsigned image (stored, never distributed); limits and signatures: test/firmware/firmware-library.test.ts.
  uploadFirmware: {
    ref: 'none',
    params: () => ({ firmwareName: 'matrix firmware', firmwareVersion: 'M-1.0.0' }),
    file: () => ({ name: 'matrix.bin', bytes: new TextEncoder().encode('matrix firmware image bytes') }),
    outcome: manufacturerOnly,
  },
  editFirmware: {
    ref: 'none',
    params: () => ({ firmware: MISSING_FIRMWARE, desc: 'matrix' }),
    okCodes: [352],
    outcome: manufacturerOnly,
  },
  delFirmware: {
    ref: 'none',
    params: () => ({ firmware: MISSING_FIRMWARE }),
    okCodes: [352],
    outcome: manufacturerOnly,
  },
  downloadFirmware: { ref: 'none', params: () => ({ firmware: MISSING_FIRMWARE }), okCodes: [352] },
  queryDefaultFirmwares: { ref: 'none', params: none },
  setDefaultFirmware: {
    ref: 'none',
    params: () => ({ dataloggerType: 'MATRIX-TYPE', firmware: MISSING_FIRMWARE }),
    okCodes: [352],
    outcome: manufacturerOnly,
  },
  queryFirmwareKeys: { ref: 'none', params: none, outcome: manufacturerOnly },
  addFirmwareKey: { ref: 'none', params: () => ({ publicKey: 'not a key' }), okCodes: [6], outcome: manufacturerOnly },
  revokeFirmwareKey: { ref: 'none', params: () => ({ id: MISSING.uid }), okCodes: [12], outcome: manufacturerOnly },
  // ---------------------------------------------------------------- upgrades (issue 13)
  // No firmware in the fixture: a visible datalogger answers 352 for the unknown firmware code;
  // test/upgrades/ proves the transfers against the simulator.
  firmwareUpgradeCollector: { ref: 'datalogger', params: (c) => ({ ...pn(c), firmware: 'FWMISSING' }), okCodes: [352] },
  firmwareUpgradeDevice: {
    ...device(() => ({ firmware: 'FWMISSING', type: 2, baudRate: 9600 })),
    okCodes: [352],
    notFound: 257,
  },
  queryCollectorFirmwareUpgradeProgress: { ref: 'datalogger', params: (c) => ({ ...pn(c), key: 'nokey' }) },
  queryCollectorFirmwareUpgradeStatus: { ref: 'datalogger', params: pn },
  queryCollectorFirmwareUpgradeLastRecord: { ref: 'datalogger', params: pn, okCodes: [12] },
  cancelCollectorFirmwareUpgrade: { ref: 'datalogger', params: (c) => ({ ...pn(c), key: 'nokey' }) },
  firmwareUpgradeBatch: { ref: 'none', params: () => ({ firmware: 'FWMISSING', pn: MISSING.pn }), okCodes: [352] },
  queryFirmwareUpgrades: { ref: 'none', params: () => ({ pagesize: 50 }) },
  queryUpgradeableFirmware: { ref: 'none', params: () => ({ pagesize: 50 }) },
  // ---------------------------------------------------------------- operator protocol tools (issue 14)
  // Operator only (roles [15]): every other caller 11; test/protocol-tools/*.test.ts covers the results.
  parseRawData: { ref: 'none', params: () => ({ devcode: 2341, frame: '08FC', start: 0 }) },
  webQueryDeviceRawData: {
    ref: 'none',
    params: () => ({ pn: MISSING.pn, devcode: 2341, devaddr: 1, sn: 'none', from: 0, to: 1000 }),
    okCodes: [12],
  },
  webQueryProtocolDefinitions: { ref: 'none', params: none },
  webQueryProtocolFields: { ref: 'none', params: () => ({ devcode: 2341 }) },
  webQueryProtocolControls: { ref: 'none', params: () => ({ devcode: 2341 }) },
  webQueryProtocolFaults: { ref: 'none', params: () => ({ devcode: 2341 }) },
  webQueryDeviceFunctions: { ref: 'none', params: none },
  webQueryDataloggerTypeFunctions: { ref: 'none', params: none },

  queryFirmwareUpgradeBatch: { ref: 'none', params: () => ({ batch: 999_999 }), okCodes: [12] },

  // ---------------------------------------------------------------- company keys (issue 14)
  // Operator only (the catalogue's roles); the fixture names no entry: 12 for an unknown id, and
  // a second add of the same key 14. Effects are proven in test/company-keys/company-keys.test.ts.
  queryCompanyKeyList: { ref: 'none', params: () => ({ pagesize: 10 }) },
  addCompanyKey: {
    ref: 'none',
    params: () => ({ ...COMPANY_KEY_ENTRY, 'company-key': 'MatrixKey0123456' }),
    okCodes: [14],
  },
  editCompanyKey: { ref: 'none', params: () => ({ id: 999999, ...COMPANY_KEY_ENTRY }), okCodes: [12] },
  setCompanyKeyEnabled: { ref: 'none', params: () => ({ id: 999999, enabled: 1 }), okCodes: [12] },
  // PN rules (issue 14): operator only; an unknown manufacturer answers 261, an unknown rule 12.
  queryManufacturerCodes: { ref: 'none', params: () => ({ pagesize: 10 }) },
  addManufacturerCode: { ref: 'none', params: () => ({ vendorUid: 999999, code: 'MX', typeCode: 'Q' }), okCodes: [261] },
  setManufacturerCodeEnabled: { ref: 'none', params: () => ({ id: 999999, enabled: 1 }), okCodes: [12] },
  // Recharge orders (issue 14 rechargeRemedy): operator only; an unknown order answers 372.
  queryRechargeOrders: { ref: 'none', params: () => ({ pagesize: 10 }) },
  queryRechargeOrder: { ref: 'none', params: () => ({ id: 999999 }), okCodes: [372] },
  remedyRechargeOrder: {
    ref: 'none',
    params: () => ({ id: 999999, from: 'unpaid', status: 'paid', reason: 'matrix check' }),
    okCodes: [372],
  },
  // Recharge records (issue 15 rechargeRecord): roles 0/1/2/3, scoped in SQL (test/recharge-records);
  // an unknown order answers 372, an export of nothing 264.
  queryMyRechargeOrders: { ref: 'none', params: () => ({ pagesize: 10 }) },
  queryMyRechargeOrder: { ref: 'none', params: () => ({ id: 999999 }), okCodes: [372] },
  exportMyRechargeOrders: { ref: 'none', params: () => ({}), okCodes: [264] },
  // Payments (issue 15): an unknown order answers 372; the matrix's cards have no SIM (1042), no expiry (1030) or another area (8).
  payOrder: { ref: 'none', params: () => ({ kind: 'recharge', orderNo: 'RC000000000', method: 'card' }), okCodes: [372] },
  queryPayResult: { ref: 'none', params: () => ({ kind: 'recharge', orderNo: 'RC000000000' }), okCodes: [372] },
  quoteRechargeOrder: {
    ref: 'datalogger',
    params: (c) => ({ pns: String(pn(c).pn), package: 'CN-30MB', months: 12, area: 'mainland' }),
  },
  createRechargeOrder: {
    ref: 'datalogger',
    params: (c) => ({ pns: String(pn(c).pn), package: 'CN-30MB', months: 12, area: 'mainland', method: 'card' }),
    okCodes: [1042, 1030, 8],
  },

  // Acceleration orders (issue 15): the write rule of editCollectorEs; the fixture's dataloggers are
  // not Wi-Fi (9). Effects, Wi-Fi dataloggers and owners' records: test/acceleration/acceleration.test.ts.
  queryAccelerationCandidates: { ref: 'none', params: () => ({ pagesize: 10 }) },
  queryAccelerationQuote: { ref: 'datalogger', params: (c) => ({ ...pn(c), type: 'flow', interval: 60 }), okCodes: [9, 271] },
  createAccelerationOrder: {
    ref: 'datalogger',
    params: (c) => ({ ...pn(c), type: 'flow', interval: 60, termsAccepted: 1 }),
    okCodes: [9, 271],
  },
  queryAccelerationOrders: { ref: 'none', params: () => ({ pagesize: 10 }) },
  queryAccelerationOrder: { ref: 'none', params: () => ({ orderNo: 'AC00000000000000NONE' }), okCodes: [12] },
  queryAccelerationChanges: { ref: 'none', params: () => ({ pagesize: 10 }) },

  // Operator logs (issue 14): operator only; effects in test/operator-logs/operator-logs.test.ts.
  queryCollectorLogs: { ref: 'none', params: () => ({ from: Date.UTC(2026, 5, 1), to: Date.UTC(2026, 5, 2), pagesize: 10 }) },
  queryActionLog: { ref: 'none', params: () => ({ errOnly: 1, pagesize: 10 }) },
  queryLogRetention: { ref: 'none', params: () => ({}) },
  setLogRetention: { ref: 'none', params: () => ({ actionLogDays: 90 }), okCodes: [271] },
  // typeCode / protocolBinding / protocolChange (issue 14): operator only; unknown entries answer
  // 387 (type code), 353 (devcode), 12 (binding), 257 (PN), 258 (device).
  queryCollectorTypeCodes: { ref: 'none', params: () => ({ pagesize: 10 }) },
  addCollectorTypeCode: {
    ref: 'none',
    params: () => ({ code: 'Q', name: 'Matrix', commMethod: 'Wi-Fi' }),
    okCodes: [14],
  },
  editCollectorTypeCode: { ref: 'none', params: () => ({ code: 'Z', name: 'Matrix' }), okCodes: [387] },
  queryProtocolBindings: { ref: 'none', params: () => ({ pagesize: 10 }) },
  addProtocolBinding: {
    ref: 'none',
    params: () => ({ devcode: 999999, scope: 'prefix', pnFrom: 'ZZ' }),
    okCodes: [353],
  },
  setProtocolBindingEnabled: { ref: 'none', params: () => ({ id: 999999, enabled: 1 }), okCodes: [12] },
  deleteProtocolBinding: { ref: 'none', params: () => ({ id: 999999 }), okCodes: [12] },
  queryProtocolDevices: { ref: 'none', params: () => ({ pn: MISSING.pn }), okCodes: [257] },
  changeDeviceProtocol: {
    ref: 'none',
    params: () => ({ deviceId: 999999, devcode: 2341, reason: 'matrix' }),
    okCodes: [258],
  },
  queryProtocolChanges: { ref: 'none', params: () => ({ pagesize: 10 }) },
  // Operator home (issue 14): operator only, platform-wide figures; proven in test/operator-home/.
  queryOperatorHome: { ref: 'none', params: () => ({}) },
  // Fleet (issue 14): operator only; a missing PN answers 257 (the moves are tested in test/dataloggers/fleet-move).
  queryFleetDevices: { ref: 'none', params: () => ({ pagesize: 50 }), counts: [{ kind: 'device', read: total }] },
  moveCollectorVendor: { ref: 'none', params: () => ({ pn: MISSING.pn, vendorUid: MISSING.uid }), okCodes: [257] },
  moveCollectorOwner: { ref: 'none', params: () => ({ pn: MISSING.pn, uid: MISSING.uid }), okCodes: [257] },
  // Custom domains and passwordMaintenance (issue 14): operator only; the fixture names no domain
  // (12) and no manufacturer 999999 (261), so no cell changes another's state. Effects are proven
  // in test/custom-domains/custom-domains.test.ts.
  queryCustomDomainList: { ref: 'none', params: () => ({ pagesize: 10 }) },
  addCustomDomain: { ref: 'none', params: () => ({ host: 'matrix.example', vendor: 999999 }), okCodes: [261] },
  editCustomDomain: { ref: 'none', params: () => ({ id: 999999, host: 'matrix.example', vendor: 999999 }), okCodes: [12] },
  setCustomDomainEnabled: { ref: 'none', params: () => ({ id: 999999, enabled: 1 }), okCodes: [12] },
  delCustomDomain: { ref: 'none', params: () => ({ id: 999999 }), okCodes: [12] },
  uploadCustomDomainImage: {
    ref: 'none',
    params: () => ({ id: 999999, kind: 'logo' }),
    file: () => ({ name: 'logo.png', bytes: tinyPng() }),
    okCodes: [12],
  },
  delCustomDomainImage: { ref: 'none', params: () => ({ id: 999999, kind: 'logo' }), okCodes: [12] },
  queryVendorCtrlPwdList: { ref: 'none', params: () => ({ pagesize: 10 }) },
  setVendorCtrlPwd: {
    ref: 'none',
    params: () => ({ vendor: 999999, pwd: 'Matrix_pwd1', confirmPwd: 'Matrix_pwd1' }),
    okCodes: [261],
  },
  clearVendorCtrlPwd: { ref: 'none', params: () => ({ vendor: 999999 }), okCodes: [261] },
  editManufacturerCode: { ref: 'none', params: () => ({ id: 999999, typeCode: 'Q' }), okCodes: [12] },
  deleteManufacturerCode: { ref: 'none', params: () => ({ id: 999999 }), okCodes: [12] },
  // Manufacturers (issue 14 factoryAccount): operator only; an unknown manufacturer answers 261, a
  // password that is no RC4 digest 16 (nothing is created). Effects: test/manufacturers/.
  queryManufacturers: { ref: 'none', params: () => ({ pagesize: 10 }) },
  addManufacturer: {
    ref: 'none',
    params: () => ({ usr: 'matrix_maker', pwd: '00', name: 'Matrix', code: 'MXZ' }),
    okCodes: [16],
  },
  editManufacturer: { ref: 'none', params: () => ({ uid: 999999, name: 'Matrix' }), okCodes: [261] },
  setManufacturerEnabled: { ref: 'none', params: () => ({ uid: 999999, enabled: 1 }), okCodes: [261] },
  adjustManufacturerEcoin: { ref: 'none', params: () => ({ uid: 999999, delta: 1, reason: 'matrix' }), okCodes: [261] },
  queryManufacturerEcoinLog: { ref: 'none', params: () => ({ uid: 999999 }), okCodes: [261] },
  queryVisibleDevcodes: { ref: 'none', params: none },

  // Tariffs and income (issue 15): effects in test/tariffs/tariffs-income.test.ts.
  queryPlantTariffs: plant(),
  // Two callers adding "from now" at the same pinned instant clash (14): allowed all the same.
  addPlantTariff: { ...plant(() => ({ unitProfit: '0.3' })), okCodes: [14] },
  editPlantTariff: { ref: 'none', params: () => ({ id: 999999, unitProfit: '0.3' }), okCodes: [12] },
  delPlantTariff: { ref: 'none', params: () => ({ id: 999999 }), okCodes: [12] },
  queryPlantIncome: plant(),
  queryFleetIncome: { ref: 'none', params: none },

  // Web error reporting (issue 16): any role reports its own page's events; the reads are the
  // operator's. Effects, limits and scrubbing: test/web-errors/web-errors.test.ts.
  reportWebEvents: {
    ref: 'none',
    params: () => ({
      sid: 'matrix-tab-0001',
      events: JSON.stringify([{ kind: 'error', source: 'onerror', ts: 1, message: 'matrix error' }]),
    }),
    personal: "stores the caller's own page errors",
  },
  reportWebEventsPublic: { exempt: 'public, no session (before sign-in): test/web-errors/web-errors.test.ts' },
  queryWebErrorGroups: { ref: 'none', params: none },
  queryWebErrorEvents: { ref: 'none', params: () => ({ fingerprint: '0'.repeat(40) }) },
  queryWebErrorEvent: { ref: 'none', params: () => ({ id: 999999 }), okCodes: [12] },
} satisfies { [N in ActionName]: Entry };

/** The fields of a key entry the matrix sends (disabled: it never opens a sign-in). */
const COMPANY_KEY_ENTRY = {
  company: 'Matrix Co',
  version: '1.0',
  client: 'web',
  domain: 'matrix.example',
  contact: 'ops',
  description: 'matrix',
  enabled: 0,
  hostname: 'app.matrix.example',
};

/** A firmware code no account has. */
const MISSING_FIRMWARE = 'ffffffffffffffff';
/** Firmware library writes: only a manufacturer (role 1) passes the service's check; the others 11. */
function manufacturerOnly(caller: CallerKey, _ref: RefKey, base: Outcome): Outcome {
  return base.ok && ROLE_OF[caller] !== 1
    ? { ok: false, code: 11, why: "firmware library writes are the manufacturer's" }
    : base;
}

/** The id of the alarm of a device reference (the fixture's one alarm per device). */
function alarmId(c: CellContext): number {
  if (c.ref === 'missing') return MISSING.uid;
  return c.fx.devices[c.ref as ObjectKey]?.alarmId ?? MISSING.uid;
}

export function isExempt(e: Entry): e is Exempt {
  return 'exempt' in e;
}
export function isNotExercised(e: Entry): e is NotExercised {
  return 'notExercised' in e;
}
