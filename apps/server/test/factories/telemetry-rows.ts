import { randomBytes } from 'node:crypto';
import { ENERGY_COUNTERS, energyCounters, getDefinition, type DeviceDefinition } from '@sunwatch/protocol';
import { sql, type Insertable } from 'kysely';
import pg from 'pg';
import type { Db } from '../../src/db/db.js';
import { dropScratchDatabase } from './pg-database.js';
import type { DeviceDaysTable } from '../../src/db/schema-telemetry.js';
import { outputPowerW } from '../../src/modules/devices/device-sample.js';
import { encodeSample } from '../../src/modules/telemetry/sample-codec.js';
import { KIND_COLUMN } from '../../src/modules/telemetry/rollups.js';
import { localDay } from '../../src/shared/local-time.js';

/**
 * Test and benchmark fixtures written straight through SQL and the sample codec (not the
 * simulator, not ingestion): plants, dataloggers, devices, samples with their latest row and
 * day rollups.
 */

export async function insertPlant(
  db: Db,
  p: {
    owner_id: number;
    name: string;
    now: number;
    tz_offset?: number;
    unit_profit?: number;
    currency?: string;
    lon?: number | null;
    lat?: number | null;
    nominal_power?: number;
    install_at?: number | null;
  },
): Promise<number> {
  const r = await db
    .insertInto('projects')
    .values({
      owner_id: p.owner_id,
      name: p.name,
      remark: '',
      image: '',
      is_default: 0,
      country: 'China',
      province: '',
      city: 'Shenzhen',
      county: '',
      district: '',
      address: '',
      lon: p.lon ?? null,
      lat: p.lat ?? null,
      tz_offset: p.tz_offset ?? 28800,
      nominal_power: p.nominal_power ?? 10,
      install_at: p.install_at ?? null,
      installer: '',
      design_company: '',
      energy_year_estimate: 0,
      energy_offset: 0,
      currency: p.currency ?? 'CNY',
      unit_profit: p.unit_profit ?? 1,
      price_buy: 0,
      price_sell: 0,
      price_use: 0,
      coal_factor: 0.4,
      co2_factor: 0.997,
      so2_factor: 0.03,
      created_at: p.now,
      updated_at: p.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function insertDatalogger(
  db: Db,
  d: {
    pn: string;
    now: number;
    owner_id?: number | null;
    admin_id?: number | null;
    vendor_id?: number | null;
    project_id?: number | null;
    tz_offset?: number;
    status?: number;
    alias?: string;
  },
): Promise<number> {
  const r = await db
    .insertInto('dataloggers')
    .values({
      pn: d.pn,
      alias: d.alias ?? d.pn,
      type_code: '',
      model: 'SW-DL1',
      comm_method: 'wifi',
      comm_address: '',
      devcode: null,
      online_domain: '',
      status: d.status ?? 0,
      active: 1,
      firmware: '1.0.0',
      signal: 80,
      load_count: 1,
      comm_balance: 0,
      owner_id: d.owner_id ?? null,
      admin_id: d.admin_id ?? null,
      vendor_id: d.vendor_id ?? null,
      project_id: d.project_id ?? null,
      tz_offset: d.tz_offset ?? 28800,
      collect_interval: 300,
      heartbeat_interval: 60,
      storage_days: 365,
      poll_start: 1,
      poll_end: 1,
      min_addr: 1,
      max_addr: 247,
      transparent: 0,
      protocol_set: '',
      country: '',
      province: '',
      city: '',
      county: '',
      district: '',
      address: '',
      lon: null,
      lat: null,
      device_token_hash: null,
      last_seen_at: d.now,
      ccid: '',
      card_status: 4,
      card_expire_at: null,
      gprs_traffic: 0,
      bad_frames: 0,
      created_at: d.now,
      updated_at: d.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function insertDevice(
  db: Db,
  d: {
    datalogger_id: number;
    pn: string;
    devcode: number;
    devaddr: number;
    sn: string;
    now: number;
    project_id?: number | null;
    status?: number;
    alias?: string;
  },
): Promise<number> {
  const def = getDefinition(d.devcode);
  if (!def) throw new Error(`no definition for devcode ${d.devcode}`);
  const r = await db
    .insertInto('devices')
    .values({
      datalogger_id: d.datalogger_id,
      pn: d.pn,
      devcode: d.devcode,
      devaddr: d.devaddr,
      sn: d.sn,
      alias: d.alias ?? d.sn,
      devtype: def.devtype,
      device_type: def.deviceType,
      model: def.name,
      brand: def.vendor,
      status: d.status ?? 0,
      firmware: '',
      load: 0,
      project_id: d.project_id ?? null,
      last_sample_at: null,
      created_at: d.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

/** Day rollup rows (min/max of each counter per local day) of a device's samples. */
export function dayRollups(
  def: DeviceDefinition,
  deviceId: number,
  samples: ReadonlyArray<{ ts: number; values: Record<string, number> }>,
  tz: number,
): Array<Insertable<DeviceDaysTable>> {
  const days = new Map<number, Insertable<DeviceDaysTable>>();
  for (const s of samples) {
    const day = localDay(s.ts, tz);
    let r = days.get(day);
    if (!r)
      days.set(day, (r = { device_id: deviceId, day, samples: 0, first_ts: s.ts, last_ts: s.ts, peak_power: null }));
    r.samples = (r.samples ?? 0) + 1;
    r.first_ts = Math.min(Number(r.first_ts), s.ts);
    r.last_ts = Math.max(Number(r.last_ts), s.ts);
    const p = outputPowerW(def, { values: s.values }) / 1000;
    r.peak_power = Math.max(r.peak_power ?? 0, p);
    const c = energyCounters(def, { values: s.values });
    const row = r as Record<string, unknown>;
    for (const k of ENERGY_COUNTERS) {
      const v = c[k];
      if (v === undefined) continue;
      const col = KIND_COLUMN[k];
      const min = row[`${col}_min`] as number | null | undefined;
      const max = row[`${col}_max`] as number | null | undefined;
      row[`${col}_min`] = min == null ? v : Math.min(min, v);
      row[`${col}_max`] = max == null ? v : Math.max(max, v);
    }
  }
  return [...days.values()];
}

/** Writes samples (encoded), the latest row and the day rollups of one device. */
export async function insertSamples(
  db: Db,
  def: DeviceDefinition,
  deviceId: number,
  samples: ReadonlyArray<{ ts: number; values: Record<string, number> }>,
  tz: number,
  opts: { rawSamples?: boolean } = {},
): Promise<void> {
  if (samples.length === 0) return;
  if (opts.rawSamples !== false) {
    for (let i = 0; i < samples.length; i += 500) {
      await db
        .insertInto('samples')
        .values(
          samples.slice(i, i + 500).map((s) => ({ device_id: deviceId, ts: s.ts, data: encodeSample(def, s.values) })),
        )
        .execute();
    }
  }
  const last = samples.reduce((a, b) => (b.ts > a.ts ? b : a));
  await db.deleteFrom('device_latest').where('device_id', '=', deviceId).execute();
  await db
    .insertInto('device_latest')
    .values({ device_id: deviceId, ts: last.ts, data: encodeSample(def, last.values) })
    .execute();
  await db.updateTable('devices').set({ last_sample_at: last.ts }).where('id', '=', deviceId).execute();
  const rollups = dayRollups(def, deviceId, samples, tz);
  for (let i = 0; i < rollups.length; i += 200) {
    await db
      .insertInto('device_days')
      .values(rollups.slice(i, i + 200))
      .execute();
  }
}

export type DayRollupRow = Insertable<DeviceDaysTable>;

/** Refreshes planner statistics after a bulk load (both engines); SQLite also checkpoints its WAL. */
export async function analyzeAfterBulkLoad(db: Db, engine: 'sqlite' | 'postgres'): Promise<void> {
  await sql`analyze`.execute(db);
  if (engine === 'sqlite') await sql`pragma wal_checkpoint(truncate)`.execute(db);
}

/** A fresh PostgreSQL database on the server of `url`; returns its URL and a dropper. */
export async function createScratchPgDatabase(
  url: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  // A random suffix, not the clock: unique even for two databases made in the same millisecond.
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: () => dropScratchDatabase(url, name),
  };
}
