import {
  DEVCODE_2341,
  DEVCODE_5121,
  DEVCODE_5123,
  DEVCODE_5124,
  type DeviceDefinition,
  type IngestFrame,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDay } from '../../src/shared/local-time.js';
import { deviceLifetime, energyTotals } from '../../src/modules/telemetry/rollups.js';
import { syntheticValues } from '../../src/modules/telemetry/synthetic.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';
import { createDatalogger } from '../factories/telemetry-ingest.js';

/** One device entry with the given counter totals (values form). */
function entry(def: DeviceDefinition, sn: string, phase: number, energy: Record<string, number>) {
  return { devcode: def.devcode, devaddr: 1, sn, values: syntheticValues(def, { phase, energy }) };
}

interface Overview {
  energyToday: string;
  energyTotal: string;
  incomeToday: string;
  incomeTotal: string;
  incomes: Array<{ currency: string; today: string; total: string }>;
  device: { total: number };
}

describe.each(engines)('plant and fleet aggregates ($name)', (engine) => {
  let s: TestServer;
  let session: { token: string; secret: string };
  const DAY = 86_400_000;

  beforeAll(async () => {
    s = await startTestServer(engine, { seed: true, now: FIXED_NOW });
    const r = await s.login('operator', 'Operator_2026');
    expect(r.err).toBe(0);
    session = r.dat!;
  });
  afterAll(() => s?.stop());

  const submit = async (f: IngestFrame) => {
    const r = await s.ctx.services.telemetry.ingest.submitData(f.pn, f);
    expect(r.ok, r.detail).toBe(true);
  };

  it('a plant takes charged/discharged from its battery, sold/bought from its meter, generated from inverters', async () => {
    const dl = await createDatalogger(s.ctx);
    const now = s.clock.now();
    // A hybrid inverter (2341: generated, used, bought, charged, discharged) AND the BMS of the
    // same battery (5123: charged, discharged) AND a grid meter (5124: bought, sold).
    for (let i = 0; i < 4; i++) {
      await submit({
        pn: dl.pn,
        ts: now - 3 * 3600_000 + i * 600_000,
        devices: [
          entry(DEVCODE_2341, 'HYB-1', i, { generated: 100 + i, used: 50 + i, bought: 10 + i, charged: 5 + i, discharged: 4 + i }),
          entry(DEVCODE_5123, 'BMS-1', i, { charged: 7 + 2 * i, discharged: 3 + 2 * i }),
          entry(DEVCODE_5124, 'MTR-1', i, { bought: 20 + 3 * i, sold: 30 + 4 * i }),
        ],
      });
    }
    await s.ctx.services.telemetry.ingest.drain();
    const today = localDay(now, 0);
    const [plant] = await energyTotals(s.ctx.db, {
      scope: { projectIds: [dl.projectId!] },
      fromDay: 0,
      toDay: today,
      period: 'total',
    });
    // 3 samples after the first: battery 2 × 3, meter 3 × 3 / 4 × 3, inverter 1 × 3.
    expect(plant).toMatchObject({ generated: 3, used: 3, charged: 6, discharged: 6, bought: 9, sold: 12 });
    // Per device nothing is filtered.
    const devices = await s.ctx.db.selectFrom('devices').select(['id', 'sn']).where('pn', '=', dl.pn).execute();
    const per = await energyTotals(s.ctx.db, {
      scope: { deviceIds: devices.map((d) => d.id) },
      fromDay: 0,
      toDay: today,
      period: 'total',
      perDevice: true,
    });
    const hyb = per.find((r) => r.deviceId === devices.find((d) => d.sn === 'HYB-1')!.id)!;
    expect(hyb).toMatchObject({ charged: 3, discharged: 3, bought: 3 });
    // The whole fleet follows the same rule (this plant is the only one with data).
    const [fleet] = await energyTotals(s.ctx.db, { scope: { all: true }, fromDay: 0, toDay: today, period: 'total' });
    expect(fleet).toMatchObject({ generated: 3, charged: 6, discharged: 6, bought: 9, sold: 12 });
    // Wire: the plant's lifetime total is the inverter's generation counter only (not the sum of days).
    const total = await s.call<{ energy: string }>(session, 'queryPlantEnergyTotal', { plantid: dl.projectId! });
    expect(total.dat!.energy).toBe('103.0000');
    // Without a battery / meter the inverter's counters count.
    const dl2 = await createDatalogger(s.ctx);
    for (let i = 0; i < 2; i++) {
      await submit({
        pn: dl2.pn,
        ts: now - 3600_000 + i * 600_000,
        devices: [entry(DEVCODE_2341, 'HYB-2', i, { generated: 10 + i, charged: 5 + 2 * i, bought: 1 + 3 * i })],
      });
    }
    await s.ctx.services.telemetry.ingest.drain();
    const [plant2] = await energyTotals(s.ctx.db, {
      scope: { projectIds: [dl2.projectId!] },
      fromDay: 0,
      toDay: today,
      period: 'total',
    });
    expect(plant2).toMatchObject({ generated: 1, charged: 2, bought: 3 });
  });

  it('the fleet overview equals a from-scratch aggregate of the rollups', async () => {
    const now = s.clock.now();
    // A device with a 10-day gap before today (today's energy counts from the last data day), a
    // second plant in another currency and timezone.
    const a = await createDatalogger(s.ctx);
    const b = await createDatalogger(s.ctx, { tz: 28800 });
    await s.ctx.db.updateTable('projects').set({ unit_profit: 0.5, currency: 'EUR' }).where('id', '=', a.projectId!).execute();
    await s.ctx.db.updateTable('projects').set({ unit_profit: 2, currency: 'EUR' }).where('id', '=', b.projectId!).execute();
    const gen = (pn: string, sn: string, ts: number, g: number): IngestFrame => ({
      pn,
      ts,
      devices: [entry(DEVCODE_5121, sn, 0, { generated: g })],
    });
    await submit(gen(a.pn, 'A-1', now - 10 * DAY, 100));
    await submit(gen(a.pn, 'A-1', now - 10 * DAY + 600_000, 101));
    await submit(gen(a.pn, 'A-1', now - 60_000, 170));
    await submit(gen(a.pn, 'A-1', now, 171.5));
    for (let d = 3; d >= 0; d--) await submit(gen(b.pn, 'B-1', now - d * DAY, 50 + (3 - d) * 12.25));
    await s.ctx.services.telemetry.ingest.drain();

    const o = await s.call<Overview>(session, 'webQueryFleetOverview', { timezone: 0 });
    expect(o.err).toBe(0);
    // From scratch: every device's day energies (rollups.ts SQL over all of device_days) in its own timezone,
    // and its lifetime total from all its rollup rows (rollups.ts JS twin).
    const rows = await s.ctx.db
      .selectFrom('devices as d')
      .innerJoin('dataloggers as dl', 'dl.id', 'd.datalogger_id')
      .leftJoin('projects as p', 'p.id', 'd.project_id')
      .select(['d.id', 'p.tz_offset as ptz', 'dl.tz_offset as dtz', 'p.unit_profit', 'p.currency'])
      .execute();
    let today = 0;
    let total = 0;
    const income = new Map<string, { today: number; total: number }>();
    for (const r of rows) {
      const day = localDay(now, r.ptz ?? r.dtz);
      const q = { scope: { deviceIds: [r.id] }, toDay: day, period: 'total' as const };
      const [t] = await energyTotals(s.ctx.db, { ...q, fromDay: day });
      const days = await s.ctx.db.selectFrom('device_days').selectAll().where('device_id', '=', r.id).execute();
      const life = deviceLifetime(days).generated;
      today += t?.generated ?? 0;
      total += life;
      const inc = income.get(r.currency ?? '') ?? { today: 0, total: 0 };
      inc.today += (t?.generated ?? 0) * (r.unit_profit ?? 0);
      inc.total += life * (r.unit_profit ?? 0);
      income.set(r.currency ?? '', inc);
    }
    expect(Number(o.dat!.energyToday)).toBeCloseTo(today, 3);
    expect(Number(o.dat!.energyTotal)).toBeCloseTo(total, 3);
    const eur = o.dat!.incomes.find((x) => x.currency === 'EUR')!;
    expect(Number(eur.today)).toBeCloseTo(income.get('EUR')!.today, 3);
    expect(Number(eur.total)).toBeCloseTo(income.get('EUR')!.total, 3);
    // The 10-day gap: today's energy of A-1 is 171.5 − 101 (not 171.5 − 170).
    expect(today).toBeGreaterThanOrEqual(70.5);
    expect(o.dat!.device.total).toBe(rows.length);
  });
});
