import { z } from 'zod';
import { BAUD_RATES, FIRMWARE_TYPES, type StrategyMethod, type StrategyStatus } from '../firmware.js';
import { defineAction, result } from './define.js';
import { actionParams, page, pageSize, wireInt } from './common.js';
import {
  STRATEGY_DEVICES_MAX,
  STRATEGY_DEVICE_RE,
  STRATEGY_FILTER_TEXT_MAX,
  STRATEGY_NAME_MAX,
  strategyFilterSchema,
  type StrategyFilter,
  STRATEGY_NAME_MIN,
  STRATEGY_TEXT_MAX,
  STRATEGY_TIME_RE,
  STRATEGY_TZ_MAX,
  STRATEGY_TZ_MIN,
} from './upgrade-strategies-params.js';

/**
 * Upgrade strategies (issue 13, spec §2 "Strategy (local upgrade)", §3/§4 "Upgrade strategy",
 * §5; docs/firmware/contract.md, docs/firmware/strategies.md).
 *
 * Who may: manufacturers (1) and distributors (2, role-2 custom roles need `system_settings` /
 * `strategy` to read and `strategy_add` to write) within their scope — the firmware must be their
 * manufacturer's (352 otherwise, as a missing one), every associated datalogger theirs (257) and
 * every device behind it (258); the operator (15) sees and manages all. A strategy of another
 * manufacturer answers 12 exactly like a missing one.
 *
 * Required (spec §5: err 7 when missing, 6 when malformed): name (2–64), description, firmware,
 * type, baudRate, timezone, startTime/endTime (the valid time), method (the upgrade type) and
 * devices (the associated devices) or a filter (fleet-sized strategies, resolved at the effective time).
 */

/** Empty values are dropped on the wire: '' is "missing" (err 7 from the service). */
const opt = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** JSON text on the wire; `null` (on edit) removes the filter. Bad JSON is malformed (6). */
const filterParam = () =>
  opt(
    z.preprocess((v) => {
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    }, z.union([z.null(), strategyFilterSchema])),
  );

const strategyFields = {
  name: opt(z.string().trim().min(STRATEGY_NAME_MIN).max(STRATEGY_NAME_MAX)),
  description: opt(z.string().trim().min(1).max(STRATEGY_TEXT_MAX)),
  /** The firmware's public code (16 hex digits). */
  firmware: opt(z.string().regex(/^[0-9a-f]{16}$/)),
  type: opt(wireInt().refine((v) => FIRMWARE_TYPES.some((t) => t.id === v))),
  baudRate: opt(wireInt().refine((v) => (BAUD_RATES as readonly number[]).includes(v))),
  /** Seconds east of UTC. */
  timezone: opt(wireInt().min(STRATEGY_TZ_MIN).max(STRATEGY_TZ_MAX).refine((v) => v % 900 === 0)),
  startTime: opt(z.string().regex(STRATEGY_TIME_RE)),
  endTime: opt(z.string().regex(STRATEGY_TIME_RE)),
  /** STRATEGY_METHOD: 0 force, 1 suggested. */
  method: opt(wireInt().min(0).max(1)),
  /** Comma-separated `PN` / `PN:SN` entries. */
  devices: opt(
    z
      .string()
      .max(200_000)
      .transform((s) => [...new Set(s.split(',').map((x) => x.trim()).filter((x) => x !== ''))])
      .pipe(z.array(z.string().regex(STRATEGY_DEVICE_RE)).max(STRATEGY_DEVICES_MAX)),
  ),
  /**
   * Targets by filter (JSON of StrategyFilter) instead of, or besides, `devices`: the population is
   * resolved in SQL at the effective time and frozen (docs/firmware/strategies.md "By filter").
   */
  filter: filterParam(),
  reminder: opt(z.string().trim().max(STRATEGY_TEXT_MAX)),
  /** Share of the devices in the canary stage (0 = none; at least one device when > 0). */
  canaryPercent: opt(wireInt().min(0).max(100)),
  /** A stage pauses when more than this share of its finished upgrades failed. */
  failureThresholdPercent: opt(wireInt().min(0).max(100)),
};

/** One strategy of `queryUpgradeStrategies`. */
export interface StrategyRow {
  id: number;
  code: string;
  name: string;
  description: string;
  firmware: { code: string; name: string; version: string };
  /** FIRMWARE_TYPES id. */
  type: number;
  baudRate: number;
  method: StrategyMethod;
  /** Seconds east of UTC the times were entered in. */
  timezone: number;
  /** Local times in `timezone`, `YYYY-MM-DD HH:mm:ss`. */
  startTime: string;
  endTime: string;
  /** The same instants, ms since the epoch. */
  startsAt: number;
  endsAt: number;
  status: StrategyStatus;
  deviceCount: number;
  /** Devices whose upgrade started (upgrading, succeeded or failed). */
  upgraded: number;
  success: number;
  failed: number;
  /** 0 canary stage, 1 the rest. */
  stage: number;
  canaryPercent: number;
  failureThresholdPercent: number;
  paused: boolean;
  /**
   * Why the rollout paused ('' when not paused), in the caller's language, e.g. `Canary stage: 1 of
   * 2 upgrades failed (50 % > 20 %)`. Stored as a code with parameters (`strategyPauseText`).
   */
  pauseReason: string;
  /** The stored pause code ('' when not paused or a legacy text). */
  pauseCode: string;
  /** The target filter, null for an explicit list only. */
  filter: StrategyFilter | null;
  /** Whether the device rows are final (a filter's population is resolved at the effective time). */
  resolved: boolean;
  reminder: string;
  createdAt: number;
}

export interface StrategyListDat {
  total: number;
  page: number;
  pagesize: number;
  strategy: StrategyRow[];
}

/** One associated device of a strategy and its result. */
export interface StrategyDeviceRow {
  pn: string;
  /** '' for the datalogger itself. */
  sn: string;
  target: number;
  devcode: number | null;
  devaddr: number | null;
  /** 0 canary, 1 the rest. */
  stage: number;
  /** STRATEGY_DEVICE_RESULT: 0 not upgraded, 1 upgrading, 2 succeeded, 3 failed. */
  result: number;
  /** The upgrade task (vendor `key`), '' before it started. */
  key: string;
  /** 0..1000 of the task, 0 before it started. */
  progress: number;
  /** The task's reason in the caller's language ('' when none; see UpgradeTaskRow.error). */
  error: string;
  updatedAt: number;
}

export interface StrategyDeviceListDat {
  total: number;
  page: number;
  pagesize: number;
  device: StrategyDeviceRow[];
}

/** A suggested strategy offered to the owner of a device. */
export interface SuggestedStrategy {
  code: string;
  name: string;
  reminder: string;
  firmware: { code: string; name: string; version: string };
  type: number;
  baudRate: number;
  endsAt: number;
  endTime: string;
  timezone: number;
  /** STRATEGY_DEVICE_RESULT of this device in the strategy. */
  result: number;
}

const strategyCode = () => z.string().regex(/^ST\d{8}-\d{4,}$/);

export const addUpgradeStrategy = defineAction({
  name: 'addUpgradeStrategy',
  summary:
    'Creates an upgrade strategy (name, description, firmware, type, baudRate, timezone, startTime/endTime, method, devices and/or filter; reminder, canaryPercent, failureThresholdPercent). Errors 7 missing, 6 malformed, 11, 352 firmware, 257 datalogger, 258 device.',
  params: actionParams(strategyFields),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'system_settings', button: 'strategy_add' },
  mutates: true,
  result: result<{ id: number; code: string }>(),
});

export const editUpgradeStrategy = defineAction({
  name: 'editUpgradeStrategy',
  summary:
    'Edits a strategy that has not started (before its effective time, not cancelled); omitted fields keep their value. Errors as addUpgradeStrategy, 12 no such strategy, 1 already started or cancelled.',
  params: actionParams({ code: strategyCode(), ...strategyFields }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'system_settings', button: 'strategy_add' },
  mutates: true,
  result: result<undefined>(),
});

export const cancelUpgradeStrategy = defineAction({
  name: 'cancelUpgradeStrategy',
  summary:
    'Cancels a strategy for good: running upgrades finish, nothing new starts. Errors 12 no such strategy, 14 already cancelled, 1 already expired.',
  params: actionParams({ code: strategyCode() }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'system_settings', button: 'strategy_add' },
  mutates: true,
  result: result<undefined>(),
});

export const resumeUpgradeStrategy = defineAction({
  name: 'resumeUpgradeStrategy',
  summary:
    'Resumes a rollout that paused because a stage failed too often: the failed devices of the stage stay failed, the next stage starts. Errors 12, 14 not paused, 1 cancelled or expired.',
  params: actionParams({ code: strategyCode() }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'system_settings', button: 'strategy_add' },
  mutates: true,
  result: result<undefined>(),
});

export const queryUpgradeStrategies = defineAction({
  name: 'queryUpgradeStrategies',
  summary:
    'Strategies of the caller’s scope, newest first, paged; search matches code or name; status filters (0 not started, 1 in effect, 2 expired, 3 cancelled). Each row carries counts, stage and pause.',
  params: actionParams({
    page: page(),
    pagesize: pageSize(100),
    search: z.string().trim().max(64).optional(),
    status: opt(wireInt().min(0).max(3)),
  }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'system_settings' },
  mutates: false,
  result: result<StrategyListDat>(),
});

export const queryUpgradeStrategyDevices = defineAction({
  name: 'queryUpgradeStrategyDevices',
  summary:
    'The associated devices of a strategy with their result, paged; search matches PN or SN; result filters (0..3). 12 no such strategy.',
  params: actionParams({
    code: strategyCode(),
    page: page(),
    pagesize: pageSize(100),
    search: z.string().trim().max(64).optional(),
    result: opt(wireInt().min(0).max(3)),
  }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'system_settings' },
  mutates: false,
  result: result<StrategyDeviceListDat>(),
});

export const queryDeviceSuggestedStrategies = defineAction({
  name: 'queryDeviceSuggestedStrategies',
  summary:
    'For a device screen: the suggested strategies in effect that list datalogger `pn` (or device `sn` behind it) and have not upgraded it yet, with their reminder. 257 / 258 when not visible.',
  params: actionParams({
    pn: z.string().min(1).max(32),
    sn: z.string().max(32).optional(),
  }),
  access: { auth: 'signed', roles: [0, 1, 2, 15], permission: 'device_manag' },
  mutates: false,
  result: result<SuggestedStrategy[]>(),
});

/** A datalogger the strategy editor may associate. */
export interface StrategyCandidate {
  pn: string;
  alias: string;
  /** DEVICE_STATUS: 0 online, 1 offline. */
  status: number;
  firmware: string;
}

/** A device behind a datalogger the strategy editor may associate (`PN:SN`). */
export interface StrategyDeviceCandidate {
  pn: string;
  sn: string;
  devcode: number;
  devaddr: number;
  alias: string;
  model: string;
  /** DEVICE_STATUS of the device. */
  status: number;
  /** The device's current firmware version. */
  firmware: string;
}

export interface StrategyCandidatesDat {
  total: number;
  page: number;
  pagesize: number;
  /** 0 dataloggers (`collector`), 1 devices (`device`). */
  target: 0 | 1;
  collector: StrategyCandidate[];
  device: StrategyDeviceCandidate[];
}

export const queryUpgradeStrategyCandidates = defineAction({
  name: 'queryUpgradeStrategyCandidates',
  summary:
    "The strategy editor's picker, paged on the server (the strategy page needs only the settings module): for a datalogger firmware `type` (or none) the dataloggers of the caller's scope (`collector`), for a device type (2–5) the devices behind them (`device`, value PN:SN) with devcode, address, model and firmware. `search` matches PN, alias (and SN); `devcode`, `plantid`, `loggerType`, `model`, `version` narrow it like a strategy filter, so `total` previews a by-filter strategy.",
  params: actionParams({
    page: page(),
    pagesize: pageSize(50),
    search: z.string().trim().max(64).optional(),
    type: opt(wireInt().refine((v) => FIRMWARE_TYPES.some((t) => t.id === v))),
    devcode: opt(wireInt().min(0).max(65535)),
    plantid: opt(wireInt().min(1)),
    loggerType: opt(z.string().trim().max(STRATEGY_FILTER_TEXT_MAX)),
    model: opt(z.string().trim().max(STRATEGY_FILTER_TEXT_MAX)),
    version: opt(z.string().trim().max(STRATEGY_FILTER_TEXT_MAX)),
  }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'system_settings' },
  mutates: false,
  result: result<StrategyCandidatesDat>(),
});
