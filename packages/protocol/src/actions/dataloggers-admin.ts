import { z } from 'zod';
import { defineAction, result } from './define.js';
import { COLLECTOR_EVENT_KINDS, COLLECTOR_SHEET_RULE, type CollectorEventKind } from './dataloggers-admin-params.js';
import { actionParams, page, pageSize, wireBool, wireInt } from './common.js';
import type { CollectorRow } from './dataloggers.js';
import { CARD_STATUSES, type CardStatus } from '../recharge.js';
import { NETWORK_TYPES, type FlowCardFields } from '../flow-cards.js';

/**
 * Datalogger management (issue 10; vendor-actions.md §6, spec §2 "Datalogger", §4, §5, §6):
 * add (single, batch), edit, reset, unbind, reboot, delete, debug, log, GPRS list, details.
 *
 * Who may (the server checks it per datalogger; a datalogger the caller cannot see answers 257):
 * - owners (0) their own dataloggers: add (with the add-datalogger permission), edit, reboot, delete;
 * - distributors (2), manufacturers (1) and the operator (15) the dataloggers of their scope:
 *   edit, reboot, delete (their own management right), debug, and reset and unbind (spec §6:
 *   manufacturers reset and unbind their dataloggers — those they made, `vendor_id`);
 * - viewers (5) and group accounts (3) never write.
 *
 * Actions that send a command to the datalogger (`waits: true`) answer 263 when it is offline and
 * 2 when it does not acknowledge within COMMAND_ACK_TIMEOUT_MS; a negative acknowledgement maps to
 * the device-control errors of spec §8 (1 failed, 6 format, 8 rejected, 9 unsupported).
 */

const text = (max: number) => z.string().max(max).optional();
/** A decimal sent as a string or number ("" leaves the field blank: null). */
const wireNum = () => z.union([z.literal(''), z.coerce.number().finite()]).optional();
/** Reset and unbind: the user typed YES (anything else → err 6). */
const confirmYes = () => z.string().max(16);

export const addCollectorToPlant = defineAction({
  name: 'addCollectorToPlant',
  summary:
    "The plant owner binds datalogger `pn` to its plant `plantid` (spec §6: only the owner, only with the add-datalogger permission; 11 otherwise). Errors 6, 11, 259 invalid PN, 260 plant, 273 another manufacturer's, 522 already the caller's, 772 bound to another owner.",
  params: actionParams({
    plantid: wireInt(),
    pn: z.string().max(32),
    alias: text(128),
  }),
  access: { auth: 'signed', roles: [0], permission: 'device_manag', button: 'datalogger_add' },
  mutates: true,
  result: result<undefined>(),
});

/** One row of a batch add: its outcome. */
export interface CollectorSheetResult {
  /** Sheet row, 1-based. */
  row: number;
  pn: string;
  alias: string;
  /** 0 added; else 259 invalid PN, 520 duplicate in the file, 522 exists, 772 bound, 273 another manufacturer's, 6 alias too long. */
  err: number;
  desc: string;
  /** Localised message ("" when added). */
  msg: string;
}

export interface CollectorSheetDat {
  total: number;
  ok: number;
  failed: number;
  result: CollectorSheetResult[];
}

export const addCollectorsBySheet = defineAction({
  name: 'addCollectorsBySheet',
  summary:
    'Sunwatch: batch add from an xlsx sheet (column A PN, column B alias, no header), a result per row (259, 520, 522, 772, 273). An owner binds them to its plant `plantid` (required); a distributor or manufacturer adds them to its stock (as distAddCollector).',
  params: actionParams({ plantid: wireInt().optional() }),
  access: { auth: 'signed', roles: [0, 1, 2], permission: 'device_manag', button: 'datalogger_add' },
  mutates: true,
  upload: COLLECTOR_SHEET_RULE,
  result: result<CollectorSheetDat>(),
});

export const editCollectorEs = defineAction({
  name: 'editCollectorEs',
  summary:
    'Edits a datalogger: identity, location, plant data and configuration; omitted = unchanged, empty = blank. A new datFetch/heartbeat is sent to the datalogger first (263 offline, 2 timeout). Errors 6, 11, 257, 271.',
  params: actionParams({
    pn: z.string().max(32),
    alias: text(128),
    'address.country': text(64),
    'address.province': text(64),
    'address.city': text(64),
    'address.county': text(64),
    /** Vendor `town`: the district. */
    'address.town': text(64),
    'address.village': text(64),
    'address.address': text(128),
    /** Both spellings of the vendor page: top-level and under `address.`. */
    'address.lon': wireNum(),
    'address.lat': wireNum(),
    lon: wireNum(),
    lat: wireNum(),
    installer: text(64),
    /** yyyy-mm-dd. */
    installDate: text(19),
    nominalPower: wireNum(),
    'profit.unitProfit': wireNum(),
    /** Price of bought (imported) power. */
    'profit.buyProfit': wireNum(),
    /** Price of sold (exported) power. */
    'profit.sellProfit': wireNum(),
    /** Price of used (consumed) power. */
    'profit.useProfit': wireNum(),
    /** Price (income) of generated power. */
    'profit.genProfit': wireNum(),
    'profit.currency': text(8),
    'profit.currencyCountry': text(8),
    /** Configuration: timezone, s east of UTC (the timezone list of spec §3). */
    timezone: wireInt().optional(),
    /** Collection frequency, s (sent to the datalogger). */
    datFetch: wireInt().min(10).max(3600).optional(),
    /** Heartbeat, s (sent to the datalogger). */
    heartbeat: wireInt().min(10).max(3600).optional(),
    /** Storage (warehousing) time, days. */
    storageDays: wireInt().min(0).max(3650).optional(),
    pollStart: wireInt().min(0).max(255).optional(),
    pollEnd: wireInt().min(0).max(255).optional(),
    minAddr: wireInt().min(0).max(255).optional(),
    maxAddr: wireInt().min(0).max(255).optional(),
    transparent: wireBool().optional(),
    protocolSet: text(64),
    /** Communication address (RS485 address of the datalogger). */
    commAddress: text(32),
  }),
  access: { auth: 'signed', roles: [0, 1, 2, 15], permission: 'device_manag', button: 'datalogger_edit' },
  mutates: true,
  waits: true,
  result: result<undefined>(),
});

export const restartCollector = defineAction({
  name: 'restartCollector',
  summary:
    'Reboots a datalogger over MQTT: ret 0 acknowledged (it drops its connection and reconnects), ret 2 refused by the datalogger; err 263 offline, 2 no acknowledgement, 257.',
  params: actionParams({ pn: z.string().max(32) }),
  access: { auth: 'signed', roles: [0, 1, 2, 15], permission: 'device_manag', button: 'datalogger_edit' },
  mutates: true,
  waits: true,
  result: result<{ ret: number; pn: string; delay: number }>(),
});

export const resetCollector = defineAction({
  name: 'resetCollector',
  summary:
    'Resets a datalogger (typed YES, else 6): the command goes out, and on its acknowledgement its devices and ALL its data (samples, latest values, rollups, alarms, follows) are deleted; it registers again. 263 offline, 2 timeout, 257, 11.',
  params: actionParams({ pn: z.string().max(32), confirm: confirmYes() }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'device_manag', button: 'datalogger_edit' },
  mutates: true,
  waits: true,
  result: result<{ pn: string; devices: number; samples: number }>(),
});

export const unbindCollector = defineAction({
  name: 'unbindCollector',
  summary:
    'Unbinds a datalogger (typed YES, else 6): the command goes out, and on its acknowledgement the dealer admin and the owner binding (owner, plant) are cleared; data is kept and the owner must rebind it (addCollectorToPlant). 263, 2, 257, 11.',
  params: actionParams({ pn: z.string().max(32), confirm: confirmYes() }),
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'device_manag', button: 'datalogger_edit' },
  mutates: true,
  waits: true,
  result: result<undefined>(),
});

export const delCollector = defineAction({
  name: 'delCollector',
  summary:
    "Deletes a datalogger from the caller's management: an owner gives up owner and plant binding, a distributor its admin right (data stays). 11 when the caller holds no such right, 257.",
  params: actionParams({ pn: z.string().max(32) }),
  access: { auth: 'signed', roles: [0, 2], permission: 'device_manag', button: 'datalogger_delete' },
  mutates: true,
  result: result<undefined>(),
});

export const debugCollector = defineAction({
  name: 'debugCollector',
  summary:
    'Sends hex bytes ("AA BB CC") to the device at communication address `addr` behind the datalogger, from starting step `step`; answers the datalogger\'s reply. 6 bad hex/step/addr, 7 missing addr, 1 no device answers, 263, 2, 257.',
  params: actionParams({
    pn: z.string().max(32),
    /** Communication address (required, spec §5). */
    addr: z.union([z.literal(''), wireInt().min(0).max(255)]).optional(),
    /** Starting step: a non-negative integer. */
    step: z.string().max(16),
    cmd: z.string().max(1024),
  }),
  /** Role-2 accounts with a permission list also need the `datalogger_debug` page (checked by the server). */
  access: { auth: 'signed', roles: [1, 2, 15], permission: 'device_manag' },
  mutates: true,
  waits: true,
  result: result<{ pn: string; addr: number; step: number; cmd: string; hex: string }>(),
});

export interface CollectorLogRow {
  id: number;
  /** Epoch ms. */
  ts: number;
  /** yyyy-mm-dd hh:mi:ss in the datalogger's timezone. */
  gts: string;
  kind: CollectorEventKind;
  /** Command kind for command/ack/timeout (reboot, reset, debug, …); '' otherwise. */
  cmd: string;
  /** 0 done; else the err code (2 timeout, 1 refused, …). */
  result: number;
  /** Who sent the command ('' for the datalogger's own events). */
  usr: string;
  detail: string;
}

export const webQueryCollectorLog = defineAction({
  name: 'webQueryCollectorLog',
  summary:
    "Datalogger log (connections, disconnections, heartbeat gaps, registrations, commands, acknowledgements, errors) from sdate to edate (yyyy-mm-dd, the datalogger's timezone, at most 3 days, no future dates: 6); newest first, paged; `kind` filters.",
  params: actionParams({
    pn: z.string().max(32),
    sdate: z.string().max(19),
    edate: z.string().max(19),
    kind: z.enum(COLLECTOR_EVENT_KINDS).optional(),
    page: page(),
    pagesize: pageSize(100),
  }),
  access: { auth: 'signed', roles: [0, 1, 2, 3, 15], permission: 'device_manag' },
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; log: CollectorLogRow[] }>(),
});

export interface GprsCollectorRow extends CollectorRow {
  type: string;
  fireware: string;
  /**
   * The vendor's keys (ccid, card, imsi, expire, traffic) plus the flow-card keys of issue 15
   * (flow-cards.ts FlowCardFields: operator, package, usage, network, type, area, activation),
   * additive. `card` is derived from expiry and usage at read time.
   */
  gprs: FlowCardFields;
}

export const queryGprsCollector = defineAction({
  name: 'queryGprsCollector',
  summary:
    'Cellular (GPRS) dataloggers of the caller by fuzzy pn, fuzzy ccid and load (web: search, card status, network, stats); paged. 257 when a pn filter matches none.',
  params: actionParams({
    pn: z.string().max(32).optional(),
    ccid: z.string().max(32).optional(),
    load: wireInt().optional(),
    page: page(),
    pagesize: pageSize(),
    /** Web: fuzzy PN or CCID (either matches). */
    search: z.string().max(32).optional(),
    /** Web: derived card status (CARD_STATUSES name). */
    cardStatus: z.enum(CARD_STATUSES).optional(),
    /** Web: network type (NETWORK_TYPES). */
    network: z.enum(NETWORK_TYPES).optional(),
    /** Web: 1 adds `stat` (cards per derived status over the whole filtered scope, status filter aside). */
    stat: wireBool().optional(),
  }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<{
    total: number;
    page: number;
    pagesize: number;
    collector: GprsCollectorRow[];
    /** With `stat=1` only. */
    stat?: Record<CardStatus, number> & { sunset: number };
  }>(),
});

/** Everything the details screen shows (spec §3 Datalogger). */
export interface CollectorDetail {
  // identity
  pn: string;
  alias: string;
  typeCode: string;
  model: string;
  /** Communication method (WiFi, GPRS, 4G, Ethernet, …). */
  commMethod: string;
  commAddress: string;
  devcode: number;
  onlineDomain: string;
  // state
  status: number;
  active: boolean;
  fireware: string;
  signal: number;
  load: number;
  commBalance: number;
  devices: number;
  /** Last heartbeat or frame ('' never). */
  lts: string;
  gts: string;
  // ownership
  uid: number;
  usr: string;
  adminUid: number;
  adminUsr: string;
  vendorUid: number;
  vendorUsr: string;
  pid: number;
  pname: string;
  // configuration
  timezone: number;
  datFetch: number;
  heartbeat: number;
  storageDays: number;
  pollStart: number;
  pollEnd: number;
  minAddr: number;
  maxAddr: number;
  transparent: boolean;
  protocolSet: string;
  // location
  address: {
    country: string;
    province: string;
    city: string;
    county: string;
    town: string;
    address: string;
    lon: number | null;
    lat: number | null;
  };
  // plant data
  nominalPower: number;
  installDate: string;
  installer: string;
  profit: {
    currency: string;
    unitProfit: number;
    buyProfit: number;
    sellProfit: number;
    useProfit: number;
    genProfit: number;
  };
  // flow card
  gprs: GprsCollectorRow['gprs'];
  /** Connection info: where the datalogger reports (MQTT topic of its frames and commands). */
  connection: { protocol: 'mqtt'; port: number; dataTopic: string; cmdTopic: string; ackTopic: string };
  /** What the caller may do on it (the web shows only these buttons). */
  can: {
    edit: boolean;
    reboot: boolean;
    reset: boolean;
    unbind: boolean;
    debug: boolean;
    delete: boolean;
    /** Issue 14: the operator moves it to another manufacturer or owner (moveCollectorVendor / moveCollectorOwner). */
    move?: boolean;
  };
}

export const queryCollectorDetail = defineAction({
  name: 'queryCollectorDetail',
  summary:
    'Sunwatch: the details of one datalogger (identity, state, ownership, configuration, location, plant data, flow card, connection info) and what the caller may do on it. 257.',
  params: actionParams({ pn: z.string().max(32) }),
  access: { auth: 'signed', permission: 'device_manag' },
  mutates: false,
  result: result<CollectorDetail>(),
});

/** What a move changed (the web shows it; the audit row holds the same before → after). */
export interface CollectorMoveDat {
  pn: string;
  vendorUid: number;
  vendorUsr: string;
  adminUid: number;
  uid: number;
  usr: string;
  pid: number;
}

export const moveCollectorVendor = defineAction({
  name: 'moveCollectorVendor',
  summary:
    "Sunwatch, operator only: moves datalogger `pn` to manufacturer `vendorUid` (its vendor changes; its dealer admin is cleared when the dealer belongs to another manufacturer; its owner is kept only when the owner's tree allows the new manufacturer, else 276). Errors 257, 261 not a manufacturer, 271 already the manufacturer's, 276.",
  params: actionParams({ pn: z.string().max(32), vendorUid: wireInt() }),
  access: { auth: 'signed', roles: [15], permission: 'device_manag' },
  mutates: true,
  result: result<CollectorMoveDat>(),
});

export const moveCollectorOwner = defineAction({
  name: 'moveCollectorOwner',
  summary:
    "Sunwatch, operator only: moves datalogger `pn` to plant owner `uid`, onto its plant `plantid` (absent: the owner's default plant, created when it has none); the dealer admin becomes the owner's dealer. Errors 257, 261, 1024 not an owner, 260 not the owner's plant, 271 already there, 273 the owner's manufacturer is not the datalogger's.",
  params: actionParams({ pn: z.string().max(32), uid: wireInt(), plantid: wireInt().optional() }),
  access: { auth: 'signed', roles: [15], permission: 'device_manag' },
  mutates: true,
  result: result<CollectorMoveDat>(),
});
