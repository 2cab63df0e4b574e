import { z } from 'zod';
import { defineAction, result } from './define.js';
import { actionParams, page, pageSize, wireInt } from './common.js';

/**
 * Firmware upgrades (issue 13; vendor-actions.md §2 and §6; docs/firmware/contract.md):
 * the four vendor actions byte-compatible, plus cancel, device upgrades, batches, the task list
 * and what an owner may upgrade to (named in the vendor's style).
 *
 * Who may: manufacturers (1), distributors (2) and the operator (15) upgrade dataloggers and
 * devices of their scope (as the datalogger actions scope them; another's answers 257); an owner
 * (0) only its own, and only to the default firmware of that datalogger type or to the firmware
 * of a suggested strategy that lists the device (11 otherwise). Viewers and group accounts never
 * write. A firmware id (`firmware`, the public code) the caller may not use, or one that is
 * deleted, unsigned or mis-signed, answers 352.
 */

const pn = () => z.string().min(1).max(32);
/** The public firmware id (`firmwares.code`). */
const firmwareCode = () => z.string().min(1).max(32);
/** The task key (`upgrade_tasks.key`). */
const taskKey = () => z.string().min(1).max(64);
const UPGRADERS = [0, 1, 2, 15] as const;

/** `dat` of a request that starts an upgrade (vendor firmwareUpgradeCollector). */
export interface UpgradeStartDat {
  /** UPGRADE_REQUEST_RESULT: 0 accepted, 1 failed to start, 2 offline, 3 already upgrading. */
  ret: number;
  /** The task id, present only when accepted. */
  key?: string;
}

export const firmwareUpgradeCollector = defineAction({
  name: 'firmwareUpgradeCollector',
  summary:
    'Vendor (SM:ch4): upgrades datalogger `pn` to firmware `firmware` (its id). dat.ret 0 accepted (with `key`), 1 failed to start, 2 offline, 3 already upgrading. Errors 2, 6, 257, 352.',
  params: actionParams({ pn: pn(), firmware: firmwareCode() }),
  access: { auth: 'signed', roles: UPGRADERS, permission: 'device_manag' },
  mutates: true,
  waits: true,
  result: result<UpgradeStartDat>(),
});

export interface UpgradeProgressDat {
  /** FIRMWARE_UPGRADE_STATUS. */
  status: number;
  /** 0..1000. */
  progress: number;
}

export const queryCollectorFirmwareUpgradeProgress = defineAction({
  name: 'queryCollectorFirmwareUpgradeProgress',
  summary: 'Vendor: the status (FIRMWARE_UPGRADE_STATUS) and progress (0..1000) of upgrade task `key` of `pn`. Errors 6, 257.',
  params: actionParams({ pn: pn(), key: taskKey() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<UpgradeProgressDat>(),
});

export interface UpgradeStatusDat {
  /** 0 upgrading (then `key` and `progress` are meaningful); any other value: not upgrading. */
  status: number;
  key?: string;
  progress?: number;
}

export const queryCollectorFirmwareUpgradeStatus = defineAction({
  name: 'queryCollectorFirmwareUpgradeStatus',
  summary: 'Vendor: whether `pn` is upgrading now (status 0 with key and progress), to reattach to a running upgrade. Errors 6, 257.',
  params: actionParams({ pn: pn() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<UpgradeStatusDat>(),
});

export interface UpgradeLastRecordDat {
  /** `yyyy-mm-dd hh:mi:ss` in the datalogger's timezone. */
  ts: string;
  status: number;
  progress: number;
}

export const queryCollectorFirmwareUpgradeLastRecord = defineAction({
  name: 'queryCollectorFirmwareUpgradeLastRecord',
  summary: 'Vendor: the last upgrade of `pn` (ts, status, progress). Errors 6, 12 (no recent upgrade), 257.',
  params: actionParams({ pn: pn() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<UpgradeLastRecordDat>(),
});

export interface UpgradeCancelDat {
  /** 0 cancelled; 1 cancel failure (the task had already ended). */
  ret: number;
  /** FIRMWARE_UPGRADE_STATUS after the call. */
  status: number;
}

export const cancelCollectorFirmwareUpgrade = defineAction({
  name: 'cancelCollectorFirmwareUpgrade',
  summary:
    'Sunwatch (the vendor pages imply it: FIRMWARE_UPGRADE_STATUS_CANCEL): cancels upgrade task `key` of `pn`; the datalogger may upgrade again once it reconnects. dat.ret 0 cancelled, 1 cancel failure. Errors 6, 11, 257.',
  params: actionParams({ pn: pn(), key: taskKey() }),
  access: { auth: 'signed', roles: UPGRADERS, permission: 'device_manag' },
  mutates: true,
  waits: true,
  result: result<UpgradeCancelDat>(),
});

export const firmwareUpgradeDevice = defineAction({
  name: 'firmwareUpgradeDevice',
  summary:
    'Sunwatch: upgrades the device (pn, devcode, devaddr, sn) through its datalogger with firmware `firmware`, firmware type `type` (FIRMWARE_TYPES 2–5) and `baudRate` (spec §5: all three required, 7). dat as firmwareUpgradeCollector. Errors 2, 6, 7, 257, 352.',
  params: actionParams({
    pn: pn(),
    devcode: wireInt(),
    devaddr: wireInt(),
    sn: z.string().min(1).max(64),
    firmware: firmwareCode().optional(),
    type: wireInt().optional(),
    baudRate: wireInt().optional(),
  }),
  access: { auth: 'signed', roles: UPGRADERS, permission: 'device_manag' },
  mutates: true,
  waits: true,
  result: result<UpgradeStartDat>(),
});

export interface UpgradeBatchDat {
  /** The batch id (`queryFirmwareUpgrades` `batch`). */
  batch: number;
  /** Targets the batch covers. */
  total: number;
  /** Started now (online). */
  started: number;
  /** Waiting for their datalogger to come online. */
  waiting: number;
  /**
   * Not started: already upgrading, or not upgradable by the caller (listed in `refused`). For a
   * batch by filter: the refusals of the targets materialised during the call only (the batch's
   * own count is `queryFirmwareUpgradeBatch`'s `refused`).
   */
  refused: Array<{ pn: string; sn: string; ret: number; err: number }>;
  /**
   * UPGRADE_BATCH_STATE: 'ready' when every target has its task (or was refused) before the
   * answer; 'materialising' when a batch by filter covers more than one page and the background
   * job creates the rest (follow it with queryFirmwareUpgradeBatch).
   */
  state?: string;
  /** Targets handled before the answer (tasks created + refused); `total` once ready. */
  materialised?: number;
}


export const firmwareUpgradeBatch = defineAction({
  name: 'firmwareUpgradeBatch',
  summary:
    'Sunwatch cloud upgrade: upgrades many dataloggers (type 0–1) or devices (type 2–5, with devcode and baudRate) with firmware `firmware`: the selection `pn` (comma list, at most 256) or, without it, every target of the caller matching the filter (plantid, status, model, version; no upper limit: the first page of targets is created before the answer, the rest by a background job, state materialising; follow it with queryFirmwareUpgradeBatch). Offline ones wait and start when they connect. Errors 6, 7, 11, 13 (a selection over 256), 352.',
  params: actionParams({
    firmware: firmwareCode(),
    type: wireInt().optional(),
    baudRate: wireInt().optional(),
    devcode: wireInt().optional(),
    pn: z.string().max(256 * 33).optional(),
    plantid: wireInt().optional(),
    status: wireInt().optional(),
    model: z.string().max(64).optional(),
    version: z.string().max(64).optional(),
  }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'system_settings', button: 'firmware_upload' },
  mutates: true,
  result: result<UpgradeBatchDat>(),
});

/** One upgrade task (a row of the cloud-upgrade list, the device's upgrade tab and history). */
export interface UpgradeTaskRow {
  key: string;
  pn: string;
  /** 0 the datalogger, 1 a device. */
  target: number;
  devcode: number | null;
  devaddr: number | null;
  sn: string | null;
  alias: string;
  firmware: { code: string; name: string; version: string; type: number };
  fromVersion: string;
  toVersion: string;
  /** FIRMWARE_UPGRADE_STATUS. */
  status: number;
  /** 'waiting' (offline), 'transfer', 'flash', 'done'. */
  phase: string;
  /** 0..1000. */
  progress: number;
  baudRate: number | null;
  /**
   * Why it failed or waits, in the caller's language ('' otherwise): stored as a reason code
   * (UPGRADE_REASONS, firmware.ts) plus the datalogger's own detail, translated at read time;
   * a row written before the codes keeps its stored text.
   */
  error: string;
  usr: string;
  batch: number | null;
  strategy: string | null;
  /** Created, updated, ended: `yyyy-mm-dd hh:mi:ss` in the caller's view. */
  ts: string;
  uts: string;
  ets: string | null;
}

export interface UpgradeTasksDat {
  total: number;
  page: number;
  pagesize: number;
  task: UpgradeTaskRow[];
  /** Counts of the whole filtered set by FIRMWARE_UPGRADE_STATUS (key = status). */
  count: Record<string, number>;
}

export const queryFirmwareUpgrades = defineAction({
  name: 'queryFirmwareUpgrades',
  summary:
    'Sunwatch: upgrade tasks the caller may see, newest first, server-paged: filters pn (fuzzy), sn, target, status, batch, strategy (code), firmware (code), sdate/edate (yyyy-mm-dd). Errors 6.',
  params: actionParams({
    page: page(),
    pagesize: pageSize(),
    pn: z.string().max(32).optional(),
    sn: z.string().max(64).optional(),
    devcode: wireInt().optional(),
    devaddr: wireInt().optional(),
    target: wireInt().optional(),
    status: wireInt().optional(),
    batch: wireInt().optional(),
    strategy: z.string().max(64).optional(),
    firmware: z.string().max(32).optional(),
    sdate: z.string().max(10).optional(),
    edate: z.string().max(10).optional(),
  }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<UpgradeTasksDat>(),
});

/** What one datalogger or device of an owner runs and may upgrade to. */
export interface UpgradeableRow {
  pn: string;
  target: number;
  devcode: number | null;
  devaddr: number | null;
  sn: string;
  alias: string;
  /** The datalogger type (`model`) or device model. */
  model: string;
  online: boolean;
  version: string;
  /** The offer: the default firmware of its type when newer, or a suggested strategy's firmware. */
  offer: null | {
    firmware: { code: string; name: string; version: string; type: number; baudRate: number | null };
    from: 'default' | 'strategy';
    strategy?: string;
    reminder?: string;
    note: string;
  };
  /** The running or last upgrade, if any. */
  task: { key: string; status: number; progress: number } | null;
}

export const queryUpgradeableFirmware = defineAction({
  name: 'queryUpgradeableFirmware',
  summary:
    "Sunwatch: the caller's dataloggers (and, with `pn`, that datalogger's devices) with their firmware version and what they may upgrade to (the default firmware of the type, or a suggested strategy), server-paged.",
  params: actionParams({ pn: z.string().max(32).optional(), page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; item: UpgradeableRow[] }>(),
});

/** `dat` of queryFirmwareUpgradeBatch: one batch and where it stands. */
export interface UpgradeBatchProgressDat {
  batch: number;
  /** UPGRADE_BATCH_STATE. */
  state: string;
  /** 0 datalogger, 1 device. */
  target: number;
  firmware: { code: string; name: string; version: string };
  /** Who started it and when (`yyyy-mm-dd hh:mi:ss`, UTC). */
  usr: string;
  ts: string;
  /** Targets the filter matched (counted when the batch was recorded; the final count once ready). */
  total: number;
  /** Targets handled so far by the materialisation: tasks created + refused. */
  materialised: number;
  /** Not started: already upgrading when their page was materialised. */
  refused: number;
  /** The batch's tasks by where they are: transferring or flashing, waiting for their datalogger, succeeded, failed or abnormal exit, cancelled. */
  started: number;
  waiting: number;
  done: number;
  failed: number;
  cancelled: number;
  /** Why the job gave up ('' otherwise). */
  error: string;
}

export const queryFirmwareUpgradeBatch = defineAction({
  name: 'queryFirmwareUpgradeBatch',
  summary:
    'Sunwatch (named as the vendor queryCollectorFirmwareUpgradeProgress): the progress of batch `batch` of firmwareUpgradeBatch: state (materialising / ready / failed), targets total and materialised, and its tasks started / waiting / done / failed / cancelled / refused. The batch\'s creator and the operator see it; 12 otherwise (as for a missing batch). Errors 6, 12.',
  params: actionParams({ batch: wireInt() }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'system_settings' },
  mutates: false,
  result: result<UpgradeBatchProgressDat>(),
});
