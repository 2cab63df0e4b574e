import {
  DEVCODE_2341,
  DEVCODE_5124,
  type AuthDat,
  type Catalogue,
  type DeviceDefinition,
  type IngestFrame,
  type ResultOf,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticValues } from '../../src/modules/telemetry/synthetic.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';
import { createDatalogger } from '../factories/telemetry-ingest.js';

type Income = ResultOf<Catalogue['queryPlantIncome']>;
type Tariffs = ResultOf<Catalogue['queryPlantTariffs']>;

/** The plant is on UTC+1: local hour h of 2026-06-d is UTC h − 1. */
const TZ = 3600;
const local = (d: number, h: number) => Date.UTC(2026, 5, d, h) - TZ * 1000;

function entry(def: DeviceDefinition, sn: string, phase: number, energy: Record<string, number>) {
  return { devcode: def.devcode, devaddr: 1, sn, values: syntheticValues(def, { phase, energy }) };
}

/**
 * Issue 15, tariffs and income end to end through the real ingest and the wire: effective-dated
 * tariffs with a time-of-use period, income frozen per closed day, scoping and validation.
 */
describe.each(engines)('tariffs and income ($name)', (engine) => {
  let s: TestServer;
  const sessions = new Map<string, AuthDat>();
  const as = (usr: string) => sessions.get(usr)!;
  let pid = 0;
  let pn = '';
  let tariffB = 0;

  const income = async (usr = 'owner_anna') => {
    const r = await s.call<Income>(as(usr), 'queryPlantIncome', { plantid: pid });
    expect(r.err).toBe(0);
    return r.dat!;
  };
  const fig = (list: Income['total'], currency = 'EUR') => list.find((f) => f.currency === currency)!;
  const submit = async (f: IngestFrame) => {
    const r = await s.ctx.services.telemetry.ingest.submitData(f.pn, f);
    expect(r.ok, r.detail).toBe(true);
  };

  beforeAll(async () => {
    s = await startTestServer(engine, { seed: true, now: FIXED_NOW });
    for (const [usr, pwd] of [
      ['owner_anna', 'Owner_2026'],
      ['owner_ben', 'Owner_2026'],
      ['viewer_cara', 'Viewer_2026'],
      ['operator', 'Operator_2026'],
    ] as const) {
      const r = await s.login(usr, pwd);
      if (r.err !== 0) throw new Error(`login ${usr}: ${r.err}`);
      sessions.set(usr, r.dat!);
    }
    const dl = await createDatalogger(s.ctx, { tz: TZ });
    pid = dl.projectId!;
    pn = dl.pn;
    const anna = await s.ctx.repos.accounts.findByUsr('owner_anna');
    await s.ctx.db.updateTable('projects').set({ owner_id: anna!.id, currency: 'EUR' }).where('id', '=', pid).execute();
  });
  afterAll(() => s?.stop());

  it('adds future tariffs (one with a peak period) and refuses bad periods, past dates and other owners', async () => {
    // 2026-06-15 05:00 local. Tariff A from the 16th: 0.10/kWh generated, 0.25 bought, 0.05 sold,
    // 0.15 self-use; peak Mon–Fri 17–21 h: 0.30 generated, 0.40 bought.
    const peak = [
      {
        kind: 'peak',
        name: 'Peak',
        weekdays: [1, 2, 3, 4, 5],
        from: 17,
        to: 21,
        prices: { unitProfit: 0.3, purchProfit: 0.4 },
      },
    ];
    const a = await s.call<{ id: number }>(as('owner_anna'), 'addPlantTariff', {
      plantid: pid,
      from: '2026-06-16',
      unitProfit: '0.10',
      purchProfit: '0.25',
      soldProfit: '0.05',
      selfProfit: '0.15',
      periods: JSON.stringify(peak),
    });
    expect(a.err).toBe(0);
    // Tariff B from the 18th: new generation and purchase prices, no periods; the rest copied from A.
    const b = await s.call<{ id: number }>(as('owner_anna'), 'addPlantTariff', {
      plantid: pid,
      from: '2026-06-18',
      unitProfit: '0.2',
      purchProfit: '0.3',
      periods: '[]',
    });
    expect(b.err).toBe(0);
    tariffB = b.dat!.id;

    const overlap = [
      { kind: 'peak', weekdays: [1, 2], from: 17, to: 21, prices: {} },
      { kind: 'offpeak', weekdays: [2], from: 20, to: 24, prices: {} },
    ];
    const bad = (periods: unknown, usr = 'owner_anna', extra: Record<string, string | number> = {}) =>
      s.call(as(usr), 'addPlantTariff', {
        plantid: pid,
        from: '2026-07-01',
        periods: JSON.stringify(periods),
        ...extra,
      });
    expect((await bad(overlap)).err).toBe(6);
    expect((await bad([{ kind: 'peak', weekdays: [1], from: 21, to: 17, prices: {} }])).err).toBe(6);
    expect((await bad([{ kind: 'peak', weekdays: [7], from: 1, to: 2, prices: {} }])).err).toBe(6);
    expect((await bad([{ kind: 'peak', weekdays: [1], from: 0, to: 25, prices: {} }])).err).toBe(6);
    expect((await bad([{ kind: 'peak', weekdays: [1, 1], from: 0, to: 2, prices: {} }])).err).toBe(6);
    // A start that is not after today, and a second tariff on the same date.
    expect(
      (await s.call(as('owner_anna'), 'addPlantTariff', { plantid: pid, from: '2026-06-15', unitProfit: 1 })).err,
    ).toBe(6);
    expect(
      (await s.call(as('owner_anna'), 'addPlantTariff', { plantid: pid, from: '2026-06-18', unitProfit: 1 })).err,
    ).toBe(14);
    // Another owner's plant answers as a missing one; a viewer never writes.
    expect((await s.call(as('owner_ben'), 'queryPlantTariffs', { plantid: pid })).err).toBe(260);
    expect((await s.call(as('owner_ben'), 'queryPlantIncome', { plantid: pid })).err).toBe(260);
    expect((await bad([], 'owner_ben')).err).toBe(260);
    expect((await s.call(as('owner_ben'), 'delPlantTariff', { id: tariffB })).err).toBe(260);
    expect((await bad([], 'viewer_cara')).err).toBe(11);

    // A future tariff can be edited and deleted (audited).
    const c = await s.call<{ id: number }>(as('owner_anna'), 'addPlantTariff', {
      plantid: pid,
      from: '2026-07-01',
      unitProfit: 9,
    });
    expect(c.err).toBe(0);
    expect(
      (await s.call(as('owner_anna'), 'editPlantTariff', { id: c.dat!.id, from: '2026-07-02', unitProfit: 8 })).err,
    ).toBe(0);
    expect((await s.call(as('owner_anna'), 'editPlantTariff', { id: c.dat!.id, unitProfit: 8 })).err).toBe(271);
    expect((await s.call(as('owner_anna'), 'delPlantTariff', { id: c.dat!.id })).err).toBe(0);
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .select(['entity', 'entity_id'])
      .where('entity', '=', 'plant_tariff')
      .execute();
    expect(audit.filter((r) => String(r.entity_id) === String(c.dat!.id)).length).toBe(3);

    const list = (await s.call<Tariffs>(as('viewer_cara'), 'queryPlantTariffs', { plantid: pid })).dat;
    // A viewer of anna's plants reads only what is shared with it: this plant is not.
    expect(list).toBeUndefined();
    const mine = (await s.call<Tariffs>(as('owner_anna'), 'queryPlantTariffs', { plantid: pid })).dat!;
    expect(mine.tariffs.map((t) => t.state)).toEqual(['future', 'future', 'current']);
    expect(mine.tariffs[1]!.periods).toHaveLength(1);
    expect(mine.tariffs[0]!.prices).toMatchObject({
      unitProfit: 0.2,
      purchProfit: 0.3,
      soldProfit: 0.05,
      selfProfit: 0.15,
    });
    expect(mine.canEdit).toBe(true);
  });

  it('income across the tariff change and the peak boundary equals the hand-computed figure', async () => {
    // Friday 2026-06-19 13:00 local: both tariffs have started and are immutable now.
    s.clock.advance(Date.UTC(2026, 5, 19, 12) - FIXED_NOW);
    expect((await s.call(as('owner_anna'), 'editPlantTariff', { id: tariffB, unitProfit: 1 })).err).toBe(8);
    expect((await s.call(as('owner_anna'), 'delPlantTariff', { id: tariffB })).err).toBe(8);

    // Inverter (generated, used) and grid meter (bought, sold) counters.
    const frame = (ts: number, i: number, gen: number, meter?: { bought: number; sold: number }): IngestFrame => ({
      pn,
      ts,
      devices: [
        entry(DEVCODE_2341, 'INV-1', i, { generated: gen, used: 50, bought: 0, charged: 0, discharged: 0 }),
        ...(meter ? [entry(DEVCODE_5124, 'MTR-1', i, meter)] : []),
      ],
    });
    // Wed 17th (tariff A): 16:00 → 17:00 off-peak, 17:00 → 18:00 peak.
    await submit(frame(local(17, 16), 0, 100, { bought: 20, sold: 30 }));
    await submit(frame(local(17, 17), 1, 102, { bought: 21, sold: 30 }));
    await submit(frame(local(17, 18), 2, 105, { bought: 23, sold: 31 }));
    // Thu 18th (tariff B, no periods): 10:00 → 11:00.
    await submit(frame(local(18, 10), 3, 105, { bought: 23, sold: 31 }));
    await submit(frame(local(18, 11), 4, 109, { bought: 24, sold: 33 }));
    // Fri 19th, today (open): 08:00 → 09:00, inverter only.
    await submit(frame(local(19, 8), 5, 109));
    await submit(frame(local(19, 9), 6, 110));
    await s.ctx.services.telemetry.ingest.drain();

    const r = await income();
    // Generated: 2 + 3 + 4 + 1 = 10 kWh; 2 × 0.10 + 3 × 0.30 (peak) + 4 × 0.20 + 1 × 0.20 (today) = 2.10.
    // Bought: 1 × 0.25 + 2 × 0.40 (peak) + 1 × 0.30 = 1.35.  Sold: (0 + 1) × 0.05 + 2 × 0.05 = 0.15.
    // Self-use (generated − sold per hour): (2 + 2 + 2 + 1) × 0.15 = 1.05.
    expect(fig(r.total)).toMatchObject({
      generated: '10.0000',
      sold: '3.0000',
      bought: '4.0000',
      selfUse: '7.0000',
      generationIncome: '2.1000',
      purchaseCost: '1.3500',
      soldIncome: '0.1500',
      selfUseIncome: '1.0500',
      earnings: '1.2000',
      net: '-0.1500',
    });
    expect(fig(r.today)).toMatchObject({ generated: '1.0000', generationIncome: '0.2000' });
    expect(fig(r.month).generationIncome).toBe('2.1000');
    expect(r.months.find((m) => m.month === '2026-06')!.generationIncome).toBe('2.1000');
    // queryPlantsProfitOneDay uses the same computation (the 17th: 0.2 + 0.9).
    const day = await s.call<{ plant: Array<{ pid: number; profit: string }> }>(
      as('owner_anna'),
      'queryPlantsProfitOneDay',
      {
        date: '2026-06-17',
        pagesize: 50,
      },
    );
    expect(day.dat!.plant.find((p) => p.pid === pid)!.profit).toBe('1.1000');
  });

  it('closed days stay frozen when prices and currency change and their samples are gone', async () => {
    const frozen = await s.ctx.db
      .selectFrom('plant_income_days')
      .selectAll()
      .where('project_id', '=', pid)
      .orderBy('day')
      .execute();
    expect(frozen.map((f) => f.day)).toEqual([20260617, 20260618]);
    // editPlant's new prices and currency start a tariff now; the past keeps its figures.
    const e = await s.call(as('owner_anna'), 'editPlant', {
      plantid: pid,
      'profit.unitProfit': '0.99',
      'profit.currency': 'USD',
    });
    expect(e.err).toBe(0);
    const devices = await s.ctx.db.selectFrom('devices').select('id').where('project_id', '=', pid).execute();
    await s.ctx.db
      .deleteFrom('samples')
      .where(
        'device_id',
        'in',
        devices.map((d) => d.id),
      )
      .where('ts', '<', local(19, 0))
      .execute();
    const r = await income();
    expect(r.currency).toBe('USD');
    expect(fig(r.total, 'EUR')).toMatchObject({ generationIncome: '2.1000', purchaseCost: '1.3500' });
    expect(fig(r.total, 'USD').generationIncome).toBe('0.0000');
    const t = (await s.call<Tariffs>(as('owner_anna'), 'queryPlantTariffs', { plantid: pid })).dat!;
    expect(t.current).toMatchObject({ currency: 'USD', state: 'current' });
    expect(t.current.prices.unitProfit).toBe(0.99);
    // Fleet totals per currency over frozen days, never summed across currencies.
    const fleet = (await s.call<ResultOf<Catalogue['queryFleetIncome']>>(as('owner_anna'), 'queryFleetIncome')).dat!;
    const eur = fleet.currencies.find((c) => c.currency === 'EUR')!;
    expect(Number(eur.total.generationIncome)).toBeGreaterThanOrEqual(1.9);
  });
});
