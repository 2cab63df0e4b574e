import { z } from 'zod';
import { defineAction, result } from './define.js';
import { actionParams, page, pageSize, wireInt } from './common.js';
import { deviceTuple, wireDay } from './telemetry-params.js';
import { KEY_PARAMETER_TOTALS } from './device-ops-params.js';
import type { CtrlFieldWire } from '../devices/wire.js';

/**
 * Device control and device operations (issue 10; wire-protocol.md §6 "Devices", vendor-actions
 * §7, spec §2 "Device screens", §3 "Device control password" / "Export file", §5 "Devices and
 * reports", §8 "Device control errors"). A device is named by its tuple `pn, devcode, devaddr,
 * sn` (or `sn` alone) exactly as in devices.ts; another tenant's device → err 258.
 *
 * Every write to a device is sent to its datalogger over MQTT (`sw/dl/<PN>/cmd`, commands.ts)
 * and recorded in the operation history (webQueryOperationLog).
 */

const tuple = <S extends z.ZodRawShape = Record<never, never>>(extra?: S) =>
  actionParams({ ...deviceTuple, ...(extra ?? ({} as S)) });

// ------------------------------------------------------------------------------------------
// Control (the device's control fields of its protocol definition)
// ------------------------------------------------------------------------------------------

export const queryDeviceCtrlField = defineAction({
  name: 'queryDeviceCtrlField',
  summary:
    'Control fields of the device (definition controls) the caller may see: {field:[{id,name,unit?,hint?,item?:[{key,val}]}]}; `write` false when the caller may only read it.',
  params: tuple(),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{
    field: Array<CtrlFieldWire & { write: boolean }>;
    /** Sunwatch: true when a device-control password guards ctrlDevice for this device. */
    pwd: boolean;
  }>(),
});

export const queryDeviceCtrlValue = defineAction({
  name: 'queryDeviceCtrlValue',
  summary:
    'Current value of one control field, read from the device over MQTT (`read` command): {id,name,val}; `src` "device" or, with a read-back field, "sample" when the datalogger is offline.',
  params: tuple({ id: z.string().min(1).max(64) }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ id: string; name: string; val: string; src: 'device' | 'sample' }>(),
});

export const ctrlDevice = defineAction({
  name: 'ctrlDevice',
  summary:
    'Writes one control field (`id`, `val`: an item key or a number in the hint range) to the device through its datalogger: {dat: answer hex | null, status: 1}. Errors of spec §8: 1 failed, 2 timeout, 6 bad value, 8 rejected, 9 not supported, 11 no permission (or wrong control password), 263 datalogger offline.',
  params: tuple({
    id: z.string().min(1).max(64),
    val: z.string().max(64),
    /** The device-control password of the device's domain, when one is set (plain text over the signed call). */
    pwd: z.string().max(64).optional(),
  }),
  access: { auth: 'signed', permission: 'device_manag', button: 'device_control_write' },
  mutates: true,
  waits: true,
  result: result<{ dat: string | null; status: -1 | 0 | 1 }>(),
});

export const sendCmdToDevice = defineAction({
  name: 'sendCmdToDevice',
  summary:
    'Sends raw bytes (`cmd` hex "AA BB CC") to the device through its datalogger (passthrough) and answers its reply: {dat: "AA BB …"}. Errors as ctrlDevice.',
  params: tuple({
    cmd: z.string().min(1).max(1024),
    pwd: z.string().max(64).optional(),
  }),
  access: { auth: 'signed', permission: 'device_manag', button: 'device_control_write' },
  mutates: true,
  waits: true,
  result: result<{ dat: string }>(),
});

// ------------------------------------------------------------------------------------------
// Device-control password (spec §3: one per custom domain)
// ------------------------------------------------------------------------------------------

export const queryDeviceCtrlPwd = defineAction({
  name: 'queryDeviceCtrlPwd',
  summary:
    "Whether the caller's domain (its manufacturer's tenant) has a device-control password: {domain, set, uts}. Never the password.",
  params: actionParams({
    /** Operator only: the manufacturer account id whose domain to query. */
    vendor: wireInt().optional(),
  }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'device_manag' },
  mutates: false,
  result: result<{ domain: string; set: boolean; uts: string }>(),
});

export const setDeviceCtrlPwd = defineAction({
  name: 'setDeviceCtrlPwd',
  summary:
    "Sets (6–32 characters) or clears (empty `pwd`) the device-control password of the caller's domain; stored hashed. Manufacturers (and the operator for a manufacturer `vendor`) only.",
  params: actionParams({
    pwd: z.string().max(32),
    /** Operator only: the manufacturer account id whose domain to set. */
    vendor: wireInt().optional(),
  }),
  // A setting of the domain (system settings), not of a device; role 2 accounts never set it.
  access: { auth: 'signed', roles: [1, 15], permission: 'system_settings' },
  mutates: true,
  result: result<undefined>(),
});

// ------------------------------------------------------------------------------------------
// Device info (vendor chapter 5)
// ------------------------------------------------------------------------------------------

export const editDeviceInfo = defineAction({
  name: 'editDeviceInfo',
  summary:
    'Edits the device alias (1–64 characters; empty clears it). Errors: 1, 6, 11 (datalogger not managed by the caller), 258, 271 (no change).',
  params: tuple({ alias: z.string().max(64).optional() }),
  access: { auth: 'signed', permission: 'device_manag', button: 'datalogger_edit' },
  mutates: true,
  result: result<undefined>(),
});

export const delDeviceFromPlant = defineAction({
  name: 'delDeviceFromPlant',
  summary:
    'Removes the device from its plant (its data stays; it no longer counts in the plant). Errors: 6, 11, 258.',
  params: tuple(),
  access: { auth: 'signed', permission: 'device_manag', button: 'datalogger_delete' },
  mutates: true,
  result: result<undefined>(),
});

export const querySPDeviceKeyParameterTotalPerYear = defineAction({
  name: 'querySPDeviceKeyParameterTotalPerYear',
  summary:
    'Yearly energy (kWh, 4 decimals) of a device counter since its first year: {option:[{val, gts:"YYYY"}]}; err 6 when the device has no such counter, 12 before any data.',
  params: tuple({ parameter: z.enum(KEY_PARAMETER_TOTALS) }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ option: Array<{ val: string; gts: string }> }>(),
});

// ------------------------------------------------------------------------------------------
// Report export (spec §3 "Export file", §5: range ≤ 31 days)
// ------------------------------------------------------------------------------------------

export interface ExportFileRow {
  id: number;
  name: string;
  /** Bytes (0 while exporting). */
  size: number;
  status: number;
  /** 0..100. */
  progress: number;
  /** Creation time, "YYYY-MM-DD HH:MM:SS" UTC. */
  gts: string;
  /** What it holds: pn, sn, sdate, edate. */
  pn: string;
  sn: string;
  sdate: string;
  edate: string;
}

export const exportDeviceReport = defineAction({
  name: 'exportDeviceReport',
  summary:
    "Starts an xlsx report of the device's samples from sdate to edate (local days, ≤ 31 days, not in the future; headers in the caller's language): the export file {id, status: 0}. err 6 on a bad range, 12 when no data.",
  params: tuple({ sdate: wireDay(), edate: wireDay() }),
  access: { auth: 'signed', permission: 'device_manag', button: 'device_export' },
  mutates: true,
  /** Not one transaction around it: the file row commits at once, the xlsx is built in the background. */
  waits: true,
  result: result<ExportFileRow>(),
});

export const webQueryExportFiles = defineAction({
  name: 'webQueryExportFiles',
  summary: "The caller's export files, newest first, paged: {total,page,pagesize,file:[…]}.",
  params: actionParams({ page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; file: ExportFileRow[] }>(),
});

export const queryExportFileUrl = defineAction({
  name: 'queryExportFileUrl',
  summary:
    'A signed download address of a ready export file, valid 5 minutes: {url, name, expire (epoch s)}. err 12 while exporting or unknown.',
  params: actionParams({ id: wireInt() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ url: string; name: string; expire: number }>(),
});

export const delExportFile = defineAction({
  name: 'delExportFile',
  summary: 'Deletes one of the caller’s export files. err 12 when unknown.',
  params: actionParams({ id: wireInt() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: true,
  result: result<undefined>(),
});

export const retryExportFile = defineAction({
  name: 'retryExportFile',
  summary:
    'Builds one of the caller’s failed export files (status 2) again, on the same record with its range and language: the file row {status: 0, progress: 0}. err 12 when unknown or another account’s, 271 when it is not failed, 258 when the device is no longer visible, 12 when its range no longer holds data.',
  params: actionParams({ id: wireInt() }),
  access: { auth: 'signed', permission: 'device_manag', button: 'device_export' },
  mutates: true,
  /** Like exportDeviceReport: the row is reset at once, the xlsx is built in the background. */
  waits: true,
  result: result<ExportFileRow>(),
});

// ------------------------------------------------------------------------------------------
// Auxiliary functions (setting/helpform, spec §5: SN and address twice, devcode, dates)
// ------------------------------------------------------------------------------------------

const helpformParams = actionParams({
  sn: z.string().min(1).max(64),
  sn2: z.string().min(1).max(64),
  devaddr: wireInt().min(0).max(255),
  devaddr2: wireInt().min(0).max(255),
  devcode: wireInt().min(1).max(0xffff),
  sdate: wireDay(),
  edate: wireDay(),
});

export const syncDeviceData = defineAction({
  name: 'syncDeviceData',
  summary:
    'Device synchronisation: asks the datalogger to resend the device’s stored samples of sdate..edate (`sync` command, ≤ 31 days); {frames, samples}. sn/sn2 and devaddr/devaddr2 must match (err 6), devcode must be the device’s (err 258).',
  params: helpformParams,
  access: { auth: 'signed', permission: 'device_manag', button: 'device_control_write' },
  mutates: true,
  waits: true,
  result: result<{ frames: number; samples: number }>(),
});

export const recalcDeviceData = defineAction({
  name: 'recalcDeviceData',
  summary:
    'Data tool: recomputes the device’s daily rollups (energies of each local day) from its stored samples of sdate..edate (≤ 31 days); {days, samples}. Same checks as syncDeviceData.',
  params: helpformParams,
  access: { auth: 'signed', permission: 'device_manag', button: 'device_control_write' },
  mutates: true,
  result: result<{ days: number; samples: number }>(),
});

// ------------------------------------------------------------------------------------------
// Operation history (every write to a datalogger or a device)
// ------------------------------------------------------------------------------------------

export interface OperationLogRow {
  id: number;
  /** "YYYY-MM-DD HH:MM:SS" in the datalogger's timezone. */
  gts: string;
  usr: string;
  action: string;
  /** OPERATION_KINDS. */
  kind: string;
  pn: string;
  devcode: number | null;
  devaddr: number | null;
  sn: string | null;
  target: string;
  /** JSON texts of the old and new values ("" when none). */
  before: string;
  after: string;
  /** 0 done, else the err code. */
  result: number;
  detail: string;
}

export const webQueryOperationLog = defineAction({
  name: 'webQueryOperationLog',
  summary:
    'Operation history of a datalogger (pn) or one of its devices (tuple), newest first, paged; sdate/edate local days (default: the last 31 days): {total,page,pagesize,log:[…]}.',
  params: tuple({
    sdate: wireDay().optional(),
    edate: wireDay().optional(),
    /** Only this kind (OPERATION_KINDS). */
    kind: z.string().max(32).optional(),
    page: page(),
    pagesize: pageSize(),
  }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; log: OperationLogRow[] }>(),
});
