import { rc4EncryptHex, sha1Hex, type ActionName } from '@sunwatch/protocol';
import type { CallerKey, Fixture, ObjectKey } from './fixture.js';
import { MISSING, type RefKey, type RefKind, type WireParams } from './model.js';

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
   * Mutating actions whose cells cannot disturb one another (each changes only the caller's own
   * rows): all their cells share one fresh copy instead of a copy per successful cell. Reason.
   */
  sharedCopy?: string;
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
  if (c.ref === 'self') return c.fx.ids[c.caller === 'DISABLED' ? 'ODIS' : c.caller] ?? MISSING.uid;
  return c.fx.ids[c.ref]!;
}

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
const FOLLOW = "following is the caller's own view state (device_follows of the caller), not a change of the device";
const FOLLOW_SHARED = 'each cell adds or removes only the (caller, device) follow row';

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
    sharedCopy: 'one cell per caller, each revoking only its own token',
  },
  logoutVerifiction: { ref: 'none', params: none, okCodes: [12] },
  updateToken: {
    ref: 'none',
    params: none,
    personal: 'rotates only the calling token',
    sharedCopy: 'one cell per caller, each rotating only its own token',
  },
  updatePassword: {
    ref: 'none',
    params: (c) => {
      const old = sha1Hex(c.fx.passwords[c.caller === 'DISABLED' ? 'ODIS' : c.caller] ?? 'x');
      return { newpwd: rc4EncryptHex(old, sha1Hex(`New_${c.caller}_Pw2026`)) };
    },
    personal: "changes only the caller's own password",
    sharedCopy: 'one cell per caller, each changing only its own password',
  },
  queryAccountInfo: { ref: 'account', params: (c): WireParams => (c.ref === 'self' ? {} : { uid: accountId(c) }) },

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
  focusDevice: { ...device(), personal: FOLLOW, sharedCopy: FOLLOW_SHARED },
  unfocusDevice: { ...device(), personal: FOLLOW, sharedCopy: FOLLOW_SHARED },

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
} satisfies { [N in ActionName]: Entry };

export function isExempt(e: Entry): e is Exempt {
  return 'exempt' in e;
}
export function isNotExercised(e: Entry): e is NotExercised {
  return 'notExercised' in e;
}
