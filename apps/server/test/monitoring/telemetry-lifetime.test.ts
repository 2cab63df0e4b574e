import { DEVCODE_5121, type IngestFrame } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDay } from '../../src/shared/local-time.js';
import { syntheticValues } from '../../src/modules/telemetry/synthetic.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { createDatalogger, type TestDatalogger } from '../factories/telemetry-ingest.js';

/**
 * "Total" energy is the device's lifetime counter (docs/decisions.md, "Telemetry (issue 3)"), not the
 * sum of the days Sunwatch has seen; month / year / per-year figures stay sums of day energies.
 */

const HOUR = 3600_000;
const DAY = 24 * HOUR;

interface Overview {
  energyToday: string;
  energyTotal: string;
  incomes: Array<{ currency: string; today: string; total: string }>;
}
interface PeriodFigures {
  today: string;
  month: string;
  year: string;
  total: string;
}

describe.each(engines)('lifetime energy totals ($name)', (engine) => {
  let s: TestServer;
  let session: { token: string; secret: string };
  let midnight: number;

  beforeAll(async () => {
    // Noon UTC on a 15th (a pinned clock): yesterday and the day before are in the same month.
    midnight = Date.UTC(2026, 5, 15);
    s = await startTestServer(engine, { seed: true, now: midnight + 12 * 3600_000 });
    const r = await s.login('operator', 'Operator_2026');
    expect(r.err).toBe(0);
    session = r.dat!;
  });
  afterAll(() => s?.stop());

  /** Generated-energy counter readings of one 5121 inverter: [day offset (0 = today), hour, kWh]. */
  const feed = async (dl: TestDatalogger, sn: string, readings: Array<[number, number, number]>) => {
    for (const [i, [dayOff, hour, kwh]] of readings.entries()) {
      const f: IngestFrame = {
        pn: dl.pn,
        ts: midnight + dayOff * DAY + hour * HOUR,
        devices: [
          { devcode: DEVCODE_5121.devcode, devaddr: 1, sn, values: syntheticValues(DEVCODE_5121, { phase: i, energy: { generated: kwh } }) },
        ],
      };
      const r = await s.ctx.services.telemetry.ingest.submitData(f.pn, f);
      expect(r.ok, r.detail).toBe(true);
    }
    await s.ctx.services.telemetry.ingest.drain();
  };
  const overview = async () => {
    const o = await s.call<Overview>(session, 'webQueryFleetOverview', { timezone: 0 });
    expect(o.err).toBe(0);
    return o.dat!;
  };
  const deviceEs = async (sn: string) => {
    const r = await s.call<{ device: Array<{ sn: string; energyToday: string; energyYear: string; energyTotal: string }> }>(
      session,
      'webQueryDeviceEs',
      { sn, pagesize: 10 },
    );
    expect(r.err).toBe(0);
    return r.dat!.device.find((d) => d.sn === sn)!;
  };
  const statistic = async (dl: TestDatalogger, sn: string) => {
    const r = await s.call<{ energy: { generated: PeriodFigures }; income: PeriodFigures }>(
      session,
      'webQueryDeviceStatistic',
      { pn: dl.pn, devcode: DEVCODE_5121.devcode, devaddr: 1, sn },
    );
    expect(r.err).toBe(0);
    return r.dat!;
  };
  const plantRow = async (dl: TestDatalogger) => {
    const pid = dl.projectId!;
    const r = await s.call<{
      plant: Array<{ pid: number; energy: string; energyMonth: string; energyYear: string; energyTotal: string; profitTotal: string }>;
    }>(session, 'webQueryPlants', { plantName: `Plant ${dl.pn}` });
    expect(r.err).toBe(0);
    return r.dat!.plant.find((p) => p.pid === pid)!;
  };
  const plantCall = async (action: string, pid: number, extra: Record<string, string> = {}) => {
    const r = await s.call<{ energy: string }>(session, action, { plantid: pid, ...extra });
    expect(r.err, action).toBe(0);
    return Number(r.dat!.energy);
  };
  const current = async (pid: number) => {
    const r = await s.call<Array<{ key: string; val: string }>>(session, 'queryPlantCurrentData', {
      plantid: pid,
      par: 'ENERGY_TODAY,ENERGY_MONTH,ENERGY_YEAR,ENERGY_TOTAL,ENERGY_PROCEEDS',
    });
    expect(r.err).toBe(0);
    return Object.fromEntries(r.dat!.map((x) => [x.key, Number(x.val)]));
  };

  it('a counter at 5,000 kWh that grew 20 kWh in 2 days totals 5,020 (device, plant, fleet); month/year show 20', async () => {
    const before = await overview();
    const dl = await createDatalogger(s.ctx);
    const pid = dl.projectId!;
    await s.ctx.db.updateTable('projects').set({ unit_profit: 0.25, currency: 'LTU' }).where('id', '=', pid).execute();
    await feed(dl, 'LIFE-1', [
      [-1, 8, 5000],
      [-1, 15, 5008],
      [0, 8, 5015],
      [0, 11, 5020],
    ]);
    const today = localDay(s.clock.now(), 0);
    expect(today % 100).toBe(15);

    // Device.
    const es = await deviceEs('LIFE-1');
    expect(Number(es.energyTotal)).toBeCloseTo(5020, 4);
    expect(Number(es.energyYear)).toBeCloseTo(20, 4);
    expect(Number(es.energyToday)).toBeCloseTo(12, 4);
    const st = await statistic(dl, 'LIFE-1');
    expect(Number(st.energy.generated.total)).toBeCloseTo(5020, 4);
    expect(Number(st.energy.generated.month)).toBeCloseTo(20, 4);
    expect(Number(st.energy.generated.year)).toBeCloseTo(20, 4);
    expect(Number(st.income.total)).toBeCloseTo(5020 * 0.25, 4);

    // Plant.
    const row = await plantRow(dl);
    expect(Number(row.energyTotal)).toBeCloseTo(5020, 4);
    expect(Number(row.energyMonth)).toBeCloseTo(20, 4);
    expect(Number(row.energyYear)).toBeCloseTo(20, 4);
    expect(Number(row.profitTotal)).toBeCloseTo(5020 * 0.25, 4);
    expect(await plantCall('queryPlantEnergyTotal', pid)).toBeCloseTo(5020, 4);
    expect(await plantCall('queryPlantEnergyMonth', pid)).toBeCloseTo(20, 4);
    expect(await plantCall('queryPlantEnergyYear', pid)).toBeCloseTo(20, 4);
    const cur = await current(pid);
    expect(cur.ENERGY_TOTAL).toBeCloseTo(5020, 4);
    expect(cur.ENERGY_MONTH).toBeCloseTo(20, 4);
    expect(cur.ENERGY_YEAR).toBeCloseTo(20, 4);
    expect(cur.ENERGY_TODAY).toBeCloseTo(12, 4);
    expect(cur.ENERGY_PROCEEDS).toBeCloseTo(5020 * 0.25, 4);
    // Per year stays a sum of days.
    const py = await s.call<{ peryear: Array<{ val: string; ts: string }> }>(session, 'queryPlantEnergyTotalPerYear', {
      plantid: pid,
    });
    expect(Number(py.dat!.peryear.at(-1)!.val)).toBeCloseTo(20, 4);

    // Fleet: the overview grows by exactly this plant's figures.
    const after = await overview();
    expect(Number(after.energyTotal) - Number(before.energyTotal)).toBeCloseTo(5020, 3);
    expect(Number(after.energyToday) - Number(before.energyToday)).toBeCloseTo(12, 3);
    expect(Number(after.incomes.find((x) => x.currency === 'LTU')!.total)).toBeCloseTo(5020 * 0.25, 3);

    // The plant's energy offset adds to every plant and fleet total (and its income), not to the periods.
    await s.ctx.db.updateTable('projects').set({ energy_offset: 1000 }).where('id', '=', pid).execute();
    expect(Number((await plantRow(dl)).energyTotal)).toBeCloseTo(6020, 4);
    expect(Number((await plantRow(dl)).energyYear)).toBeCloseTo(20, 4);
    expect(await plantCall('queryPlantEnergyTotal', pid)).toBeCloseTo(6020, 4);
    expect((await current(pid)).ENERGY_TOTAL).toBeCloseTo(6020, 4);
    expect((await current(pid)).ENERGY_PROCEEDS).toBeCloseTo(6020 * 0.25, 4);
    const withOffset = await overview();
    expect(Number(withOffset.energyTotal) - Number(before.energyTotal)).toBeCloseTo(6020, 3);
    expect(Number(withOffset.incomes.find((x) => x.currency === 'LTU')!.total)).toBeCloseTo(6020 * 0.25, 3);
    // The device itself stays at its counter.
    expect(Number((await deviceEs('LIFE-1')).energyTotal)).toBeCloseTo(5020, 4);
  });

  it('a counter reset carries the energy counted before it (today and on a past day)', async () => {
    const before = await overview();
    const dl = await createDatalogger(s.ctx);
    const pid = dl.projectId!;
    // Reset today: 3000 → 3010, 3012 → 3015, then 2 → 5.
    await feed(dl, 'RESET-TODAY', [
      [-2, 9, 3000],
      [-2, 16, 3010],
      [-1, 9, 3012],
      [-1, 16, 3015],
      [0, 8, 2],
      [0, 11, 5],
    ]);
    // Reset yesterday: 3000 → 3010, then 1 → 4, 6 → 9.
    const dl2 = await createDatalogger(s.ctx);
    await s.ctx.db.updateTable('dataloggers').set({ project_id: pid }).where('id', '=', dl2.id).execute();
    await feed(dl2, 'RESET-PAST', [
      [-2, 9, 3000],
      [-2, 16, 3010],
      [-1, 9, 1],
      [-1, 16, 4],
      [0, 8, 6],
      [0, 11, 9],
    ]);
    // Lifetime = latest counter + what each reset lost = first reading + Σ day energies:
    // RESET-TODAY 5 + (3015 − 2) = 3018 (days 10 + 5 + 3); RESET-PAST 9 + (3010 − 1) = 3018 (days 10 + 3 + 5).
    for (const sn of ['RESET-TODAY', 'RESET-PAST']) {
      const es = await deviceEs(sn);
      expect(Number(es.energyTotal), sn).toBeCloseTo(3018, 4);
      expect(Number(es.energyYear), sn).toBeCloseTo(18, 4);
    }
    expect(Number((await statistic(dl, 'RESET-TODAY')).energy.generated.total)).toBeCloseTo(3018, 4);
    expect(Number((await statistic(dl2, 'RESET-PAST')).energy.generated.month)).toBeCloseTo(18, 4);
    expect(Number((await plantRow(dl)).energyTotal)).toBeCloseTo(6036, 4);
    expect(await plantCall('queryPlantEnergyTotal', pid)).toBeCloseTo(6036, 4);
    expect(await plantCall('queryPlantEnergyMonth', pid)).toBeCloseTo(36, 4);
    expect((await current(pid)).ENERGY_TOTAL).toBeCloseTo(6036, 4);
    const after = await overview();
    expect(Number(after.energyTotal) - Number(before.energyTotal)).toBeCloseTo(6036, 3);
    expect(Number(after.energyToday) - Number(before.energyToday)).toBeCloseTo(3 + 5, 3);
  });
});
