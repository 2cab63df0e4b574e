import crypto from 'node:crypto';
import { sql } from 'kysely';
import mqtt from 'mqtt';
import { DEVCODE_2341, encodeRegisters, type IngestFrame } from '@sunwatch/protocol';
import { syntheticValues } from '../../src/modules/telemetry/synthetic.js';
import { dayEnergy, type DayEnergy } from '../../src/modules/telemetry/rollups.js';
import type { AppContext } from '../../src/context.js';

export interface TestDatalogger {
  id: number;
  pn: string;
  token: string;
  projectId: number | null;
}

/** Default registration time of test dataloggers (2025-01-01). */
export const FIXTURE_REGISTERED_AT = Date.UTC(2025, 0, 1);

/** The MQTT client id a datalogger may use: `dl-<PN>` or `dl-<PN>/<suffix>` (docs/security/ingest.md). */
export function clientIdOf(pn: string, suffix?: string): string {
  return suffix === undefined ? `dl-${pn}` : `dl-${pn}/${suffix}`;
}

export function freshPn(): string {
  return `T${crypto.randomBytes(5).toString('hex').toUpperCase()}`;
}

/** A plant (of any existing account, or none) with a datalogger and a fresh device token. */
export async function createDatalogger(
  ctx: AppContext,
  opts: { tz?: number; heartbeatInterval?: number; withPlant?: boolean; pn?: string; createdAt?: number } = {},
): Promise<TestDatalogger> {
  const now = ctx.now();
  // Registered long ago by default, so fixed 2025 sample times are inside the backfill window.
  const registered = opts.createdAt ?? FIXTURE_REGISTERED_AT;
  const pn = opts.pn ?? freshPn();
  let projectId: number | null = null;
  if (opts.withPlant !== false) {
    const owner = await ctx.db.selectFrom('accounts').select('id').orderBy('id').executeTakeFirst();
    if (owner) {
      const r = await sql<{ id: number }>`insert into projects (owner_id, name, tz_offset, created_at, updated_at)
        values (${owner.id}, ${`Plant ${pn}`}, ${opts.tz ?? 0}, ${now}, ${now}) returning id`.execute(ctx.db);
      projectId = r.rows[0]!.id;
    }
  }
  const r = await sql<{
    id: number;
  }>`insert into dataloggers (pn, project_id, tz_offset, heartbeat_interval, created_at, updated_at)
    values (${pn}, ${projectId}, ${opts.tz ?? 0}, ${opts.heartbeatInterval ?? 60}, ${registered}, ${now}) returning id`.execute(
    ctx.db,
  );
  const token = await ctx.services.telemetry.issueDeviceToken(pn);
  return { id: r.rows[0]!.id, pn, token, projectId };
}

/** A 2341 frame (83 values) as registers or values, with energy totals growing with `i`. */
export function frame2341(
  pn: string,
  ts: number,
  i: number,
  opts: { sn?: string; asValues?: boolean; fault?: number } = {},
): IngestFrame {
  const v = syntheticValues(DEVCODE_2341, {
    phase: i,
    energy: {
      generated: 100 + i * 0.7,
      used: 50 + i * 0.3,
      bought: 10 + i * 0.1,
      charged: 5 + i * 0.2,
      discharged: 4 + i * 0.1,
    },
    overrides: opts.fault !== undefined ? { fault_code: opts.fault } : {},
  });
  const dev = { devcode: 2341, devaddr: 1, sn: opts.sn ?? `${pn}-INV1` };
  return {
    pn,
    ts,
    devices: [opts.asValues ? { ...dev, values: v } : { ...dev, registers: encodeRegisters(DEVCODE_2341, v) }],
  };
}

export async function connectDatalogger(
  port: number,
  pn: string,
  token: string,
  extra: mqtt.IClientOptions = {},
): Promise<mqtt.MqttClient> {
  return mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    username: pn,
    password: token,
    clientId: clientIdOf(pn, crypto.randomBytes(3).toString('hex')),
    reconnectPeriod: 0,
    connectTimeout: 5000,
    ...extra,
  });
}

/** Everything derived state of a device: sample count, latest, day rows and day energies. */
export async function deviceState(ctx: AppContext, deviceId: number) {
  const samples = await ctx.db
    .selectFrom('samples')
    .select(['ts'])
    .where('device_id', '=', deviceId)
    .orderBy('ts')
    .execute();
  const latest = await ctx.db
    .selectFrom('device_latest')
    .select(['ts'])
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
  const days = await ctx.db
    .selectFrom('device_days')
    .selectAll()
    .where('device_id', '=', deviceId)
    .orderBy('day')
    .execute();
  const energy: DayEnergy[] = dayEnergy(days);
  return { samples: samples.map((s) => s.ts), latest: latest?.ts, days, energy };
}

export async function waitFor<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The worst frame the ingest limits allow: `maxDevices` devices, each with every register of a
 * 2341 hybrid plus unused register words up to `maxValues`, as long as the frame stays under
 * `maxPacketBytes` (ingest-latency test and `bench/ingest-latency.bench.ts`).
 */
export function worstAllowedFrame(
  pn: string,
  ts: number,
  limits: { maxDevices: number; maxValues: number; maxPacketBytes: number },
): IngestFrame {
  const v = syntheticValues(DEVCODE_2341, {
    phase: 3,
    energy: { generated: 100, used: 50, bought: 10, charged: 5, discharged: 4 },
  });
  const registers = encodeRegisters(DEVCODE_2341, v);
  const used = registers.reduce((n, b) => n + b.hex.length / 4, 0);
  const perDevice = Math.floor((limits.maxPacketBytes - 2048) / limits.maxDevices);
  const base = JSON.stringify({ devcode: 2341, devaddr: 255, sn: 'W00', registers }).length + 40;
  const pad = Math.max(0, Math.min(limits.maxValues - used, Math.floor((perDevice - base) / 4), 1024));
  const padded = pad > 0 ? [...registers, { start: 4000, hex: '0101'.repeat(pad) }] : registers;
  return {
    pn,
    ts,
    devices: Array.from({ length: limits.maxDevices }, (_, i) => ({
      devcode: 2341,
      devaddr: i % 256,
      sn: `W${i}`,
      registers: padded,
    })),
  };
}
