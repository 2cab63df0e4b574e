import { z } from 'zod';
import { defineAction, result } from './define.js';
import { actionParams, idList, page, pageSize, wireInt } from './common.js';
import { deviceTuple } from './telemetry-params.js';
import { ALARM_DEVICE_TYPES, type AlarmDeviceType } from '../alarms/types.js';

/**
 * Alarms (issue 11; vendor-actions.md §8, wire-protocol.md §6 "Alarms", spec §2 "Alarms", §3
 * "Alarm", §4 "Alarm", §9 "alarm statistics the last 7 days"). Vendor actions keep their names,
 * params and shapes; Sunwatch additions (handling many, filter rules, statistics) are named in the
 * same style. Every read is scoped to the plants the caller may see (admins their subtree, owners
 * their plants, viewers their assigned plants); viewers (role 5) never handle or edit rules.
 *
 * Descriptions (`desc`) are in the call's `i18n` language, resolved at read time from the protocol
 * definitions (alarms/texts.ts); times `gts`/`ets` are "YYYY-MM-DD HH:MM:SS" in the plant's
 * timezone (wire-protocol.md §5).
 */

/** "yyyy-mm-dd[ hh:mi[:ss]]" (a day alone = its midnight). */
const wireDateTime = () =>
  z
    .string()
    .trim()
    .regex(/^\d{4}-\d{1,2}-\d{1,2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$/);

/** `level` as one level or a CSV of levels (0 warning, 1 error, 2 fault, 3 offline). */
const levelList = () =>
  z
    .union([z.number(), z.string()])
    .transform((v) => String(v))
    .pipe(z.string().regex(/^([0-3](,[0-3])*)?$/))
    .transform((s) => (s === '' ? [] : [...new Set(s.split(',').map(Number))]));

const atypeList = () =>
  z
    .string()
    .max(512)
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(ALARM_DEVICE_TYPES)));

/** Filters common to the alarm lists and counts. */
const listFilters = {
  /** 0 untreated, 1 processed (absent = both). */
  handle: wireInt().min(0).max(1).optional(),
  level: levelList().optional(),
  /** Wire devtype of the device (512 inverter, …). */
  devtype: wireInt().optional(),
  /** Sunwatch: the spec's device types of alarm, CSV (`inverter,battery`). */
  atype: atypeList().optional(),
  /** Half-open window sdate <= occurrence < edate; both or neither (err 6). */
  sdate: wireDateTime().optional(),
  edate: wireDateTime().optional(),
  /** Sunwatch: 0 or absent all, 1 ongoing (no end time), 2 ended (history). */
  state: wireInt().min(0).max(2).optional(),
  /** Sunwatch: alarms hidden by the caller's rules: 0 or absent excluded, 1 included, 2 only those. */
  hidden: wireInt().min(0).max(2).optional(),
  /** Sunwatch: one alarm code. */
  code: wireInt().min(0).optional(),
  /** Sunwatch: one alarm by its id (the link of an alarm mail); out of reach = nothing matches. */
  id: wireInt().min(1).optional(),
};

/** One alarm on the wire. */
export interface AlarmRow {
  /** Alarm id (unique, integer). */
  id: number;
  /** Owner (plant owner) account id; 0 when the plant has no owner or the datalogger no plant. */
  uid: number;
  /** Owner username ("" when none). */
  usr: string;
  /** Device SN ("" for the offline alarm of a datalogger). */
  sn: string;
  /** Datalogger PN. */
  pn: string;
  /** Device protocol code; -1 without device. */
  devcode: number;
  /** RS-485 address; -1 without device. */
  devaddr: number;
  /** Wire devtype; 0 without device. */
  devtype: number;
  /** Spec device type of alarm. */
  atype: AlarmDeviceType;
  /** Device alias, else the datalogger alias ("" when none). */
  devalias: string;
  /** Description in the call's language. */
  desc: string;
  /** 0 warning, 1 error, 2 fault, 3 offline. */
  level: number;
  code: number;
  /** Occurrence time, plant timezone. */
  gts: string;
  /** End time, plant timezone; "" while the condition lasts. */
  ets: string;
  /** 0 untreated, 1 processed. */
  handle: number;
  /** Who processed it ("" while untreated). */
  handleUsr: string;
  /** When it was processed, plant timezone ("" while untreated). */
  handleTs: string;
  /** Plant id (0 when the datalogger has no plant) and name. */
  pid: number;
  pname: string;
  /** The plant's address: "address, city, province, country" without empty parts. */
  address: string;
  /** The plant's timezone, seconds east of UTC. */
  timezone: number;
  /** True when one of the caller's rules hides it (listed only with `hidden` 1 or 2). */
  hidden: boolean;
}

export interface AlarmListDat {
  total: number;
  page: number;
  pagesize: number;
  warning: AlarmRow[];
}

export const queryDeviceWarning = defineAction({
  name: 'queryDeviceWarning',
  summary:
    "Alarms of one device (tuple or sn), newest first, paged; `sdate`/`edate` in device time (the plant's timezone), half-open. 258 unknown device, 6 one date without the other.",
  params: actionParams({ ...deviceTuple, ...listFilters, page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<AlarmListDat>(),
});

export const queryDeviceWarningCount = defineAction({
  name: 'queryDeviceWarningCount',
  summary:
    'Number of alarms of one device; without `handle` the untreated ones (vendor: "number of unprocessed alarms"). `sdate`/`edate` in device time, together, half-open. 6, 7, 258.',
  params: actionParams({ ...deviceTuple, ...listFilters }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{ count: number }>(),
});

/** Plant / region filters of the fleet alarm lists. */
const plantFilters = {
  plantid: wireInt().optional(),
  pname: z.string().max(64).optional(),
  province: z.string().max(64).optional(),
  city: z.string().max(64).optional(),
  county: z.string().max(64).optional(),
  town: z.string().max(64).optional(),
  pn: z.string().max(64).optional(),
  sn: z.string().max(64).optional(),
  /** Fuzzy datalogger PN or device SN. */
  search: z.string().max(64).optional(),
  /** Sunwatch: owner account id (admins). */
  uid: wireInt().optional(),
  /**
   * Sunwatch: seconds east of UTC in which `sdate`/`edate` are read (the browser's offset);
   * absent = UTC as the vendor documents.
   */
  tz: wireInt()
    .min(-14 * 3600)
    .max(14 * 3600)
    .optional(),
};

export const queryPlantsWarning = defineAction({
  name: 'queryPlantsWarning',
  summary:
    'Device alarms in every plant the caller sees ("Query Device alarms in all Plant"): devtype, search (fuzzy PN / SN), level, handle, plantid, pname, province, city, county, town; sdate/edate UTC, half-open; paged, newest first.',
  params: actionParams({ ...listFilters, ...plantFilters, page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', permission: 'alarm_manag' },
  mutates: false,
  result: result<AlarmListDat>(),
});

export const webQueryPlantsWarning = defineAction({
  name: 'webQueryPlantsWarning',
  summary:
    'The web alarm list (every area): the filters of queryPlantsWarning plus Sunwatch `state` (ongoing / history), `hidden`, `atype`, `code`, `tz`; paged, newest first. err 264 when nothing matches (wire-protocol.md §6).',
  params: actionParams({ ...listFilters, ...plantFilters, page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', permission: 'alarm_manag' },
  mutates: false,
  result: result<AlarmListDat>(),
});

export const queryPlantWarningDeviceCount = defineAction({
  name: 'queryPlantWarningDeviceCount',
  summary:
    "Number of devices of a plant in alarm (an ongoing alarm, not hidden by the caller's rules); devtype, level filters. 6, 11, 260.",
  params: actionParams({ plantid: wireInt(), devtype: wireInt().optional(), level: levelList().optional() }),
  access: { auth: 'signed', permission: 'alarm_manag' },
  mutates: false,
  result: result<{ count: number }>(),
});

export const queryPlantsWarningDeviceCount = defineAction({
  name: 'queryPlantsWarningDeviceCount',
  summary: 'Number of devices in alarm (an ongoing alarm) in every plant the caller sees; devtype, level filters.',
  params: actionParams({ devtype: wireInt().optional(), level: levelList().optional() }),
  access: { auth: 'signed', permission: 'alarm_manag' },
  mutates: false,
  result: result<{ count: number }>(),
});

export const ignorePlantWarning = defineAction({
  name: 'ignorePlantWarning',
  summary:
    'Marks one alarm processed (untreated → processed, who and when are recorded); an already processed alarm stays as it was. err 264 when the caller sees no such alarm. Viewers cannot.',
  params: actionParams({ id: wireInt().min(1) }),
  access: { auth: 'signed', roles: [0, 1, 2, 3, 15], permission: 'alarm_manag', button: 'alarm_handle' },
  mutates: true,
  result: result<undefined>(),
});

export const handlePlantWarnings = defineAction({
  name: 'handlePlantWarnings',
  summary:
    'Marks many alarms processed (`id` CSV, ≤ 256): {count (newly processed), handleUsr, handleTs (UTC)}. All or nothing: err 264 when one id is not an alarm the caller sees. Viewers cannot.',
  params: actionParams({ id: idList().pipe(z.array(z.number().int().min(1)).min(1).max(256)) }),
  access: { auth: 'signed', roles: [0, 1, 2, 3, 15], permission: 'alarm_manag', button: 'alarm_handle' },
  mutates: true,
  result: result<{ count: number; handleUsr: string; handleTs: string }>(),
});

// ------------------------------------------------------------------------------------------
// Statistics (spec §9: the last 7 days)
// ------------------------------------------------------------------------------------------

export interface AlarmStatDay {
  /** "YYYY-MM-DD" in the statistics' timezone. */
  date: string;
  warning: number;
  error: number;
  fault: number;
  offline: number;
  total: number;
}

export const webQueryWarningStatistic = defineAction({
  name: 'webQueryWarningStatistic',
  summary:
    'Alarms that occurred on each of the last 7 days (today included) per type, for one plant (its timezone) or every plant the caller sees (timezone `tz`, seconds east, default 0): {days:[{date,warning,error,fault,offline,total}] oldest first, total, untreated, ongoing}. Rule-hidden alarms are not counted.',
  params: actionParams({
    plantid: wireInt().optional(),
    devtype: wireInt().optional(),
    tz: wireInt()
      .min(-14 * 3600)
      .max(14 * 3600)
      .optional(),
  }),
  access: { auth: 'signed', permission: 'alarm_manag' },
  mutates: false,
  result: result<{
    days: AlarmStatDay[];
    total: Omit<AlarmStatDay, 'date'>;
    /** Untreated alarms of the 7 days. */
    untreated: number;
    /** Alarms still going on now (any start date). */
    ongoing: number;
  }>(),
});

// ------------------------------------------------------------------------------------------
// Alarm filter rules (per account; alarms/rules.ts holds the matcher)
// ------------------------------------------------------------------------------------------

/** A rule on the wire (alarms/rules.ts AlarmRule plus its times). */
export interface AlarmRuleRow {
  id: number;
  name: string;
  /** 0 / 1. */
  enable: number;
  stime: string;
  etime: string;
  atype: AlarmDeviceType[];
  pid: number[];
  device: string[];
  level: number[];
  code: number[];
  desc: string;
  /** 1: matching alarms are not notified. */
  mute: number;
  /** 1: matching alarms are hidden from the lists. */
  hide: number;
  /** Created / updated, UTC "YYYY-MM-DD HH:MM:SS". */
  cts: string;
  uts: string;
}

const slotTime = () => z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d)?$/);
const csvList = <O>(item: z.ZodType<O, string>, max: number) =>
  z
    .string()
    .max(4096)
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item).max(max));

/** Rule fields (add: name required; edit: omitted = unchanged, empty CSV = any). */
const ruleFields = {
  /** 2–32 characters. */
  name: z.string().trim().min(2).max(32),
  enable: wireInt().min(0).max(1),
  /** "HH:MM" or empty; both empty = all day. */
  stime: slotTime(),
  etime: slotTime(),
  atype: atypeList(),
  pid: csvList(z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(1)), 256),
  /** Device SNs or datalogger PNs, CSV (≤ 256). */
  device: csvList(z.string().min(1).max(64), 256),
  level: levelList(),
  code: csvList(z.string().regex(/^\d+$/).transform(Number), 256),
  /** Description keyword, ≤ 64 characters. */
  desc: z.string().trim().max(64),
  mute: wireInt().min(0).max(1),
  hide: wireInt().min(0).max(1),
};

export const webQueryWarningRules = defineAction({
  name: 'webQueryWarningRules',
  summary: "The caller's alarm filter rules, newest first, paged.",
  params: actionParams({ page: page(), pagesize: pageSize() }),
  access: { auth: 'signed', permission: 'alarm_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; rule: AlarmRuleRow[] }>(),
});

export const addWarningRule = defineAction({
  name: 'addWarningRule',
  summary:
    'Adds an alarm filter rule of the caller: name (2–32, unique per account, else 516), time slot, device types, plants (visible ones, else 260), device filter, alarm types, codes, description; at least one of mute/hide (6). ≤ 100 rules per account (13). {id}. Viewers cannot.',
  params: actionParams({
    ...ruleFields,
    enable: ruleFields.enable.default(1),
    stime: ruleFields.stime.default(''),
    etime: ruleFields.etime.default(''),
    atype: ruleFields.atype.optional(),
    pid: ruleFields.pid.optional(),
    device: ruleFields.device.optional(),
    level: ruleFields.level.optional(),
    code: ruleFields.code.optional(),
    desc: ruleFields.desc.default(''),
    mute: ruleFields.mute.default(1),
    hide: ruleFields.hide.default(0),
  }),
  access: { auth: 'signed', roles: [0, 1, 2, 3, 15], permission: 'alarm_manag' },
  mutates: true,
  result: result<{ id: number }>(),
});

export const editWarningRule = defineAction({
  name: 'editWarningRule',
  summary:
    "Edits one of the caller's rules (`id`; another account's rule answers 12 like a missing one); omitted fields unchanged, an empty list = any. 271 when nothing changes. Viewers cannot.",
  params: actionParams({
    id: wireInt().min(1),
    name: ruleFields.name.optional(),
    enable: ruleFields.enable.optional(),
    stime: ruleFields.stime.optional(),
    etime: ruleFields.etime.optional(),
    atype: ruleFields.atype.optional(),
    pid: ruleFields.pid.optional(),
    device: ruleFields.device.optional(),
    level: ruleFields.level.optional(),
    code: ruleFields.code.optional(),
    desc: ruleFields.desc.optional(),
    mute: ruleFields.mute.optional(),
    hide: ruleFields.hide.optional(),
  }),
  access: { auth: 'signed', roles: [0, 1, 2, 3, 15], permission: 'alarm_manag' },
  mutates: true,
  result: result<undefined>(),
});

export const delWarningRule = defineAction({
  name: 'delWarningRule',
  summary: "Deletes one of the caller's rules (`id`; 12 when the caller has no such rule). Viewers cannot.",
  params: actionParams({ id: wireInt().min(1) }),
  access: { auth: 'signed', roles: [0, 1, 2, 3, 15], permission: 'alarm_manag' },
  mutates: true,
  result: result<undefined>(),
});
