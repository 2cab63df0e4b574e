import { z } from 'zod';
import type { RegisterBlock } from '../devices/frame.js';
import type { DataloggerTypeFunctions, DevcodeFunctions } from '../devices/functions.js';
import { actionParams, page, pageSize, wireInt } from './common.js';
import { defineAction, result } from './define.js';
import { RAW_FRAME_MAX_CHARS } from './protocol-tools-params.js';

/**
 * Issue 14, operator area — protocol operation tools (`protocolInstruction`, `rawDataParsing`) and
 * `deviceFunction` (docs/operator/protocol-tools.md). Read-only, operator only (role 15: anyone
 * else err 11). The vendor pages show no action names for these pages; the names follow the vendor
 * style (`webQuery…` for server-paged lists).
 */
/**
 * Role 15 only. The module is device management (these are device/protocol tools; the catalogue
 * test wants it for every Device read); it never binds anyone here, since no role 2 is admitted.
 */
const OPERATOR = { auth: 'signed', roles: [15], permission: 'device_manag' } as const;

const devcode = () => wireInt().min(1).max(0xffff);
const search = () => z.string().trim().max(64).default('');

/** One decoded field of a raw frame. */
export interface RawFieldRow {
  id: string;
  /** The field title in the call's language. */
  title: string;
  unit: string;
  /** Scaled value (enum fields: the state number). */
  value: number;
  /** What a screen shows: the enum label (call's language) or the value with the field's decimals. */
  display: string;
  /** First register and its words as sent ("08FC", "0001E240"). */
  address: number;
  hex: string;
  group: string;
  /** Sunwatch-only field (energy counters, fault registers), never listed on vendor screens. */
  internal: boolean;
}

/** One device entry of a parsed frame. */
export interface RawDeviceRow {
  devcode: number;
  devaddr: number;
  sn: string;
  /** Definition name ('' for an unknown devcode). */
  name: string;
  /** Ingestion's verdict on this entry: stored as `fields`, or refused for `reason`. */
  accepted: boolean;
  /** '' | the ingestion refusal reason (`schema`, `limits`, `unknown_devcode`, `decode`). */
  reason: string;
  detail: string;
  /** Everything the decoder found wrong (also when only part of the entry decodes). */
  errors: string[];
  /** The register words decoded (as given, or rebuilt from a stored sample). */
  registers: RegisterBlock[];
  fields: RawFieldRow[];
}

/** `dat` of `parseRawData`. */
export interface RawParseDat {
  /** How the pasted text was read. */
  format: 'hex' | 'blocks' | 'device' | 'frame';
  /** Frame-level refusal of ingestion (schema of the frame head), '' when none. */
  frameError: string;
  devices: RawDeviceRow[];
}

export const parseRawData = defineAction({
  name: 'parseRawData',
  summary:
    'Operator: decodes a pasted raw frame (hex register words from `start`, a JSON register-block list, a device entry or a whole frame as a datalogger posts it) with the ingestion decoder; `devcode` applies where the input names none.',
  params: actionParams({
    devcode: devcode(),
    frame: z.string().min(1).max(RAW_FRAME_MAX_CHARS),
    /** First register of bare hex words (default 0). */
    start: wireInt().min(0).max(0xffff).default(0),
  }),
  access: OPERATOR,
  mutates: false,
  result: result<RawParseDat>(),
});

/** One stored sample of `webQueryDeviceRawData`, re-parsed. */
export interface RawSampleRow {
  ts: number;
  device: RawDeviceRow;
}

export const webQueryDeviceRawData = defineAction({
  name: 'webQueryDeviceRawData',
  summary:
    "Operator: a device's stored samples in [from, to] (epoch ms, at most 3 days), newest first, each as its register words re-parsed with the definition of the devcode in force at its time (protocolChange); err 12 for an unknown device.",
  params: actionParams({
    pn: z.string().trim().min(1).max(64),
    devcode: devcode(),
    devaddr: wireInt().min(0).max(255),
    sn: z.string().trim().min(1).max(64),
    from: wireInt().min(0),
    to: wireInt().min(0),
    page: page(),
    pagesize: pageSize(20),
  }),
  access: OPERATOR,
  mutates: false,
  result: result<{ total: number; rows: RawSampleRow[] }>(),
});

/** One devcode of `webQueryProtocolDefinitions`. */
export interface ProtocolDefinitionRow {
  devcode: number;
  name: string;
  vendor: string;
  kind: string;
  category: string;
  devtype: number;
  deviceType: number;
  origin: 'reference' | 'sunwatch';
  ratedPower: number;
  fields: number;
  controls: number;
  faults: number;
  /** Lowest and highest register of its fields. */
  registerMin: number;
  registerMax: number;
  notes: string;
}

export const webQueryProtocolDefinitions = defineAction({
  name: 'webQueryProtocolDefinitions',
  summary:
    'Operator: the protocol definitions shipped (packages/protocol), filtered by text (devcode, name, vendor) and kind, paged.',
  params: actionParams({
    q: search(),
    kind: z.string().trim().max(32).default(''),
    page: page(),
    pagesize: pageSize(),
  }),
  access: OPERATOR,
  mutates: false,
  result: result<{ total: number; rows: ProtocolDefinitionRow[] }>(),
});

/** One field of a definition. */
export interface ProtocolFieldRow {
  id: string;
  title: string;
  unit: string;
  group: string;
  address: number;
  words: number;
  signed: boolean;
  scale: number;
  decimals: number;
  min: number | null;
  max: number | null;
  internal: boolean;
  /** Enum states (raw → label in the call's language). */
  states: Array<{ key: string; label: string }>;
  chart: boolean;
}

export const webQueryProtocolFields = defineAction({
  name: 'webQueryProtocolFields',
  summary:
    "Operator: a definition's fields (register, scale, unit, states), filtered by text and group, paged; err 12 for an unknown devcode.",
  params: actionParams({
    devcode: devcode(),
    q: search(),
    group: z.string().trim().max(8).default(''),
    page: page(),
    pagesize: pageSize(),
  }),
  access: OPERATOR,
  mutates: false,
  result: result<{ total: number; rows: ProtocolFieldRow[] }>(),
});

/** One control field of a definition. */
export interface ProtocolControlRow {
  id: string;
  name: string;
  unit: string;
  hint: string;
  type: string;
  address: number;
  words: number;
  scale: number;
  /** Field that reads the setting back ('' none). */
  readback: string;
  /** Number of choices (0: a free value within `ranges`). */
  items: number;
  /** The first choices, labels in the call's language. */
  sample: Array<{ key: string; val: string }>;
  ranges: Array<{ min: number; max: number; step: number }>;
}

export const webQueryProtocolControls = defineAction({
  name: 'webQueryProtocolControls',
  summary:
    "Operator: a definition's control fields (register, scale, choices, ranges, readback), filtered by text, paged.",
  params: actionParams({ devcode: devcode(), q: search(), page: page(), pagesize: pageSize() }),
  access: OPERATOR,
  mutates: false,
  result: result<{ total: number; rows: ProtocolControlRow[] }>(),
});

/** One alarm code of a definition. */
export interface ProtocolFaultRow {
  code: number;
  level: number;
  description: string;
}

export const webQueryProtocolFaults = defineAction({
  name: 'webQueryProtocolFaults',
  summary: "Operator: a definition's alarm codes (level, description), filtered by text or code, paged.",
  params: actionParams({ devcode: devcode(), q: search(), page: page(), pagesize: pageSize() }),
  access: OPERATOR,
  mutates: false,
  result: result<{ total: number; rows: ProtocolFaultRow[] }>(),
});

/** One devcode of `webQueryDeviceFunctions`. */
export interface DeviceFunctionRow extends DevcodeFunctions {
  name: string;
  kind: string;
  /** Devices of the platform with this devcode. */
  devices: number;
}

export const webQueryDeviceFunctions = defineAction({
  name: 'webQueryDeviceFunctions',
  summary:
    'Operator: per devcode the functions it offers (control fields, upgrade, debug, acceleration), derived from the definitions, with its device count.',
  params: actionParams({ q: search(), page: page(), pagesize: pageSize() }),
  access: OPERATOR,
  mutates: false,
  result: result<{ total: number; rows: DeviceFunctionRow[] }>(),
});

/** One datalogger type (type code) of `webQueryDataloggerTypeFunctions`. */
export interface DataloggerTypeFunctionRow extends DataloggerTypeFunctions {
  /** The type code ('' = dataloggers without one). */
  typeCode: string;
  dataloggers: number;
  commMethods: string[];
  models: string[];
  /** Devcodes its dataloggers report. */
  devcodes: number[];
  /** Manufacturers that set a default firmware for this type. */
  defaultFirmwares: number;
}

export const webQueryDataloggerTypeFunctions = defineAction({
  name: 'webQueryDataloggerTypeFunctions',
  summary:
    'Operator: per datalogger type code the functions it offers (commands, upgrade, debug, acceleration, flow card), from its dataloggers and the command protocol, paged.',
  params: actionParams({ q: search(), page: page(), pagesize: pageSize() }),
  access: OPERATOR,
  mutates: false,
  result: result<{ total: number; rows: DataloggerTypeFunctionRow[] }>(),
});
