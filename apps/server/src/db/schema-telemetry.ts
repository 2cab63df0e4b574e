import type { Generated } from 'kysely';

/**
 * Telemetry tables (issue 3): projects (plants), dataloggers, devices, samples, latest values,
 * rollups and alarms. Same conventions as schema.ts: epoch-ms instants, 0/1 flags, JSON as text.
 * Local dates are integers `YYYYMMDD` in the plant's timezone (`tz_offset` seconds east of UTC).
 */
export interface ProjectsTable {
  id: Generated<number>;
  /** The plant owner (role 0) account. */
  owner_id: number;
  name: string;
  remark: string;
  /** Image as a data URL or stored file reference (≤ 1 MB). */
  image: string;
  is_default: number;
  country: string;
  province: string;
  city: string;
  county: string;
  district: string;
  address: string;
  lon: number | null;
  lat: number | null;
  /** Seconds east of UTC (spec §3 Options: GMT-12..+13, incl. +5:30, +6:30). */
  tz_offset: number;
  /** Rated power, kW. */
  nominal_power: number;
  install_at: number | null;
  installer: string;
  design_company: string;
  energy_year_estimate: number;
  energy_offset: number;
  currency: string;
  /** Income per kWh generated (profit.unitProfit). */
  unit_profit: number;
  price_buy: number;
  price_sell: number;
  price_use: number;
  /** kg per kWh for the environmental figures (coal saved, CO2, SO2). */
  coal_factor: number;
  co2_factor: number;
  so2_factor: number;
  created_at: number;
  updated_at: number;
  /** Issue 10 (migration 0010). */
  village: Generated<string>;
  /** Self-consumption and feed-in prices per kWh. */
  price_self: Generated<number>;
  price_feed: Generated<number>;
  currency_country: Generated<string>;
  /** Thumbnail URL of the plant picture (`image` holds the picture's URL). */
  image_small: Generated<string>;
}

export interface DataloggersTable {
  id: Generated<number>;
  pn: string;
  alias: string;
  type_code: string;
  model: string;
  comm_method: string;
  comm_address: string;
  devcode: number | null;
  online_domain: string;
  /** DEVICE_STATUS: 0 online, 1 offline. */
  status: number;
  active: number;
  firmware: string;
  /** 0..100 %. */
  signal: number;
  load_count: number;
  comm_balance: number;
  /** The plant owner; null while unbound. */
  owner_id: number | null;
  /** The dealer administrator (distributor) that manages it. */
  admin_id: number | null;
  /** The manufacturer whose datalogger it is. */
  vendor_id: number | null;
  project_id: number | null;
  tz_offset: number;
  /** Collection interval, seconds (acceleration changes it). */
  collect_interval: number;
  /** Heartbeat interval, seconds; offline after 3 missed heartbeats (see jobs). */
  heartbeat_interval: number;
  storage_days: number;
  poll_start: number;
  poll_end: number;
  min_addr: number;
  max_addr: number;
  transparent: number;
  protocol_set: string;
  country: string;
  province: string;
  city: string;
  county: string;
  district: string;
  address: string;
  lon: number | null;
  lat: number | null;
  /** SHA-256 of the datalogger's ingestion token (MQTT password / HTTP bearer). */
  device_token_hash: string | null;
  last_seen_at: number | null;
  ccid: string;
  card_status: number;
  card_expire_at: number | null;
  gprs_traffic: number;
  /** Frames rejected (bad JSON, unknown device, decode errors), for the operator. */
  bad_frames: number;
  created_at: number;
  updated_at: number;
  /** Plant data of the datalogger (migration 0011, editCollectorEs). */
  nominal_power: Generated<number>;
  install_at: number | null;
  installer: Generated<string>;
  currency: Generated<string>;
  unit_profit: Generated<number>;
  price_buy: Generated<number>;
  price_sell: Generated<number>;
  price_use: Generated<number>;
  price_gen: Generated<number>;
  imsi: Generated<string>;
  /** Flow card details (migration 0039, docs/money/flow-cards.md). */
  card_carrier: Generated<string>;
  card_package: Generated<string>;
  card_used_kb: Generated<number>;
  /** 0 = unknown. */
  card_limit_kb: Generated<number>;
  /** NETWORK_TYPES or ''. */
  card_network: Generated<string>;
  /** CARD_TYPES or ''. */
  card_type: Generated<string>;
  /** RECHARGE_AREAS or ''. */
  card_area: Generated<string>;
  card_activated_at: number | null;
  card_status_at: number | null;
}

export interface DevicesTable {
  id: Generated<number>;
  datalogger_id: number;
  pn: string;
  devcode: number;
  devaddr: number;
  sn: string;
  alias: string;
  /** Wire devtype (512 inverter, 1024 meter, 1792 battery, 2304 energy-storage machine …). */
  devtype: number;
  /** Device type of spec §3: 0 other ES, 1 off-grid, 2 inverter, 3 ES integrated. */
  device_type: number;
  model: string;
  brand: string;
  /** DEVICE_STATUS. */
  status: number;
  firmware: string;
  load: number;
  project_id: number | null;
  last_sample_at: number | null;
  created_at: number;
}

export interface DeviceFollowsTable {
  account_id: number;
  device_id: number;
  created_at: number;
}

/**
 * One row per (device, sample time). `data` packs the values in the order of the devcode's
 * definition fields (`fieldIndex`), see `modules/telemetry/sample-codec.ts`.
 */
export interface SamplesTable {
  device_id: number;
  ts: number;
  data: Uint8Array;
}

/** The newest sample of each device (real-time screens read only this). */
export interface DeviceLatestTable {
  device_id: number;
  ts: number;
  data: Uint8Array;
}

/**
 * Per device per local day. For each energy kind the min and max of the cumulative counter seen
 * that day (order-independent and idempotent under re-sent samples); the day's energy is derived
 * in `modules/telemetry/rollups.ts`. Income is energy × the plant's prices at query time.
 */
export interface DeviceDaysTable {
  device_id: number;
  day: number;
  samples: number;
  gen_min: number | null;
  gen_max: number | null;
  chg_min: number | null;
  chg_max: number | null;
  dis_min: number | null;
  dis_max: number | null;
  sold_min: number | null;
  sold_max: number | null;
  bought_min: number | null;
  bought_max: number | null;
  used_min: number | null;
  used_max: number | null;
  /** Peak output power of the day, kW. */
  peak_power: number | null;
  first_ts: number;
  last_ts: number;
}

/** Plants assigned to a viewer (role 5) sub-account: read-only access. */
export interface ViewerProjectsTable {
  viewer_id: number;
  project_id: number;
}

export interface AlarmsTable {
  id: Generated<number>;
  datalogger_id: number;
  device_id: number | null;
  /** ALARM_LEVEL: 0 warning, 1 error, 2 fault, 3 offline. */
  level: number;
  code: number;
  description: string;
  started_at: number;
  ended_at: number | null;
  /** ALARM_HANDLE: 0 untreated, 1 processed. */
  handled: number;
  /** Who processed it (0014): account id, username at that time, epoch ms. */
  handled_by: number | null;
  handled_usr: Generated<string>;
  handled_at: number | null;
  /** The plant's owner when the alarm was raised (0018); null: no owner then. */
  owner_id: Generated<number | null>;
}

/** Alarms per datalogger × level × handled × open (0018, kept by triggers on `alarms`). */
export interface AlarmCountsTable {
  datalogger_id: number;
  level: number;
  handled: number;
  /** 1: no end time yet. */
  open: number;
  n: number;
}

/** Alarm filter rules of an account (0014; protocol alarms/rules.ts). Lists are JSON text. */
export interface AlarmRulesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  enabled: number;
  stime: string;
  etime: string;
  atype: string;
  pids: string;
  devices: string;
  levels: string;
  codes: string;
  description: string;
  mute: number;
  hide: number;
  created_at: number;
  updated_at: number;
}

export interface TelemetryTables {
  projects: ProjectsTable;
  dataloggers: DataloggersTable;
  devices: DevicesTable;
  device_follows: DeviceFollowsTable;
  samples: SamplesTable;
  device_latest: DeviceLatestTable;
  device_days: DeviceDaysTable;
  alarms: AlarmsTable;
  alarm_counts: AlarmCountsTable;
  alarm_rules: AlarmRulesTable;
  viewer_projects: ViewerProjectsTable;
}
