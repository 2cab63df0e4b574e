import { DEVCODE_2341, type AuthDat, type Catalogue, type IngestFrame, type ResultOf } from '@sunwatch/protocol';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticValues } from '../../src/modules/telemetry/synthetic.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';
import { createDatalogger } from '../factories/telemetry-ingest.js';

type Income = ResultOf<Catalogue['queryPlantIncome']>;
interface Overview {
  incomes: Array<{ currency: string; today: string; total: string }>;
}
interface PlantRow {
  pid: number;
  profitToday: string;
  profitTotal: string;
}

const HOUR = 3_600_000;
/** UTC hour h of 2026-06-d (the plants are on UTC). FIXED_NOW is Monday 2026-06-15 04:00. */
const at = (d: number, h: number) => Date.UTC(2026, 5, d, h);

/**
 * Issue 15, "one income everywhere" (docs/money/tariffs.md): the fleet home, the plant list, the
 * plant page's ENERGY_PROCEEDS, device statistics and report files price each kWh with the tariff in
 * force when it was measured. A price change (editPlant writes a tariff from now) never moves income
 * already earned; the new price applies from its start; a time-of-use today equals queryPlantIncome's.
 */
describe.each(engines)('one income on every screen ($name)', (engine) => {
  let s: TestServer;
  let anna: AuthDat;
  let pid = 0;
  let pn = '';
  let sn = 'OI-INV-1';

  const submit = async (f: IngestFrame) => {
    const r = await s.ctx.services.telemetry.ingest.submitData(f.pn, f);
    expect(r.ok, r.detail).toBe(true);
  };
  const gen = (p: string, serial: string, ts: number, kwh: number, i: number): IngestFrame => ({
    pn: p,
    ts,
    devices: [
      {
        devcode: DEVCODE_2341.devcode,
        devaddr: 1,
        sn: serial,
        values: syntheticValues(DEVCODE_2341, {
          phase: i,
          energy: { generated: kwh, used: 0, bought: 0, charged: 0, discharged: 0 },
        }),
      },
    ],
  });
  const ok = async <T>(action: string, params: Record<string, string | number>): Promise<T> => {
    const r = await s.call<T>(anna, action, params);
    expect(r.err, action).toBe(0);
    return r.dat!;
  };

  /** Every screen's income of the plant (and the fleet's per currency). */
  const screens = async (plant = pid, serial = sn) => {
    const overview = await ok<Overview>('webQueryFleetOverview', { timezone: 0 });
    const name = (await s.ctx.db.selectFrom('projects').select('name').where('id', '=', plant).executeTakeFirst())!
      .name;
    const list = await ok<{ plant: PlantRow[] }>('webQueryPlants', { page: 0, pagesize: 10, plantName: name });
    const row = list.plant.find((r) => r.pid === plant)!;
    const cur = await ok<Array<{ key: string; val: string }>>('queryPlantCurrentData', {
      plantid: plant,
      par: 'ENERGY_PROCEEDS',
    });
    const stat = await ok<{ income: { today: string; total: string } }>('webQueryDeviceStatistic', {
      pn,
      devcode: DEVCODE_2341.devcode,
      devaddr: 1,
      sn: serial,
    });
    // A fresh monthly report file (June) of the plant: its income column for the 13th..15th and its sum.
    const owner = await s.ctx.repos.accounts.findByUsr('owner_anna');
    await s.ctx.db.deleteFrom('report_files').where('project_id', '=', plant).execute();
    const report = await s.ctx.services.reports.files.buildForMail(owner!.id, plant, 'monthly', '2026-06', 'en');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await s.ctx.services.reports.files.attachment(report!.fileId)) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const cell = (r: number) => ws.getRow(r).getCell(8).value as number;
    // The sum row follows the day rows.
    const sumRow = () => {
      let r = 6;
      while (/^\d{4}-/.test(String(ws.getRow(r).getCell(1).value ?? ''))) r++;
      return r;
    };
    return {
      fleet: overview.incomes,
      listToday: row.profitToday,
      listTotal: row.profitTotal,
      proceeds: cur.find((x) => x.key === 'ENERGY_PROCEEDS')!.val,
      statToday: stat.income.today,
      statTotal: stat.income.total,
      reportIncome: report!.total.income,
      reportDays: [cell(5 + 13), cell(5 + 14), cell(5 + 15)],
      reportSum: cell(sumRow()),
    };
  };

  beforeAll(async () => {
    s = await startTestServer(engine, { seed: true, now: FIXED_NOW });
    const r = await s.login('owner_anna', 'Owner_2026');
    if (r.err !== 0) throw new Error(`login: ${r.err}`);
    anna = r.dat!;
    const dl = await createDatalogger(s.ctx, { tz: 0 });
    pid = dl.projectId!;
    pn = dl.pn;
    const owner = await s.ctx.repos.accounts.findByUsr('owner_anna');
    await s.ctx.db
      .updateTable('projects')
      .set({ owner_id: owner!.id, currency: 'EUR', unit_profit: 0.25 })
      .where('id', '=', pid)
      .execute();
    await s.ctx.db.updateTable('dataloggers').set({ owner_id: owner!.id }).where('pn', '=', pn).execute();
    // The counter was at 1,000 kWh before the platform saw it (an opening balance of 1,000 kWh):
    // 10 kWh on the 13th, 10 on the 14th, 4 today (the 15th) up to now (04:00).
    const steps: Array<[number, number]> = [
      [at(13, 10), 1000],
      [at(13, 12), 1010],
      [at(14, 10), 1010],
      [at(14, 12), 1020],
      [at(15, 1), 1020],
      [at(15, 3), 1024],
    ];
    for (const [i, [ts, v]] of steps.entries()) await submit(gen(pn, sn, ts, v, i));
    await s.ctx.services.telemetry.ingest.drain();
  });
  afterAll(() => s?.stop());

  it('a price change moves no income already earned; the new price applies from its start', async () => {
    const before = await screens();
    // Constant price: every screen is energy × 0.25 (1,024 kWh in total, 4 today, 24 in June).
    expect(before).toMatchObject({
      listToday: '1.0000',
      listTotal: '256.0000',
      proceeds: '256.0000',
      statToday: '1.0000',
      statTotal: '256.0000',
      reportIncome: 6,
      reportDays: [2.5, 2.5, 1],
      reportSum: 6,
    });

    // editPlant changes the price: a tariff from now (04:00) at 0.50.
    await ok('editPlant', { plantid: pid, 'profit.unitProfit': '0.5' });
    const tariffs = await ok<{ tariffs: Array<{ prices: { unitProfit: number } }> }>('queryPlantTariffs', {
      plantid: pid,
    });
    expect(tariffs.tariffs[0]!.prices.unitProfit).toBe(0.5);
    const after = await screens();
    expect(after).toEqual(before);

    // An hour later 4 more kWh (03:00 → 05:00, spread evenly): 2 kWh before 04:00 at 0.25, 2 after at 0.50.
    s.clock.advance(HOUR);
    await submit(gen(pn, sn, at(15, 5), 1028, 6));
    await s.ctx.services.telemetry.ingest.drain();
    const later = await screens();
    expect(later).toMatchObject({
      listToday: '2.5000',
      listTotal: '257.5000',
      proceeds: '257.5000',
      statToday: '2.5000',
      statTotal: '257.5000',
      reportIncome: 7.5,
      reportDays: [2.5, 2.5, 2.5],
      reportSum: 7.5,
    });
    const eur = (o: typeof before.fleet) => Number(o.find((x) => x.currency === 'EUR')!.total);
    expect(eur(later.fleet) - eur(before.fleet)).toBeCloseTo(1.5, 3);
    // Today's income is the tariff path's own today.
    const inc = await ok<Income>('queryPlantIncome', { plantid: pid });
    expect(inc.today.find((f) => f.currency === 'EUR')!.generationIncome).toBe('2.5000');
  });

  it("a time-of-use today on the fleet home and the plant list equals queryPlantIncome's", async () => {
    const dl = await createDatalogger(s.ctx, { tz: 0 });
    const owner = await s.ctx.repos.accounts.findByUsr('owner_anna');
    await s.ctx.db.updateTable('projects').set({ owner_id: owner!.id }).where('id', '=', dl.projectId!).execute();
    await s.ctx.db.updateTable('dataloggers').set({ owner_id: owner!.id }).where('pn', '=', dl.pn).execute();
    // Now 05:00: a SEK tariff from now at 0.30, 2.00 between 06:00 and 07:00 every day.
    await ok('addPlantTariff', {
      plantid: dl.projectId!,
      currency: 'SEK',
      unitProfit: '0.3',
      periods: JSON.stringify([
        { kind: 'peak', name: 'Peak', weekdays: [0, 1, 2, 3, 4, 5, 6], from: 6, to: 7, prices: { unitProfit: 2 } },
      ]),
    });
    s.clock.advance(3 * HOUR);
    await submit(gen(dl.pn, 'OI-TOU-1', at(15, 5), 100, 0));
    await submit(gen(dl.pn, 'OI-TOU-1', at(15, 6), 103, 1));
    await submit(gen(dl.pn, 'OI-TOU-1', at(15, 7), 107, 2));
    await s.ctx.services.telemetry.ingest.drain();
    pn = dl.pn;
    sn = 'OI-TOU-1';
    const inc = await ok<Income>('queryPlantIncome', { plantid: dl.projectId! });
    // 3 kWh at 0.30 + 4 kWh at 2.00 (peak).
    const today = inc.today.find((f) => f.currency === 'SEK')!.generationIncome;
    expect(today).toBe('8.9000');
    const sc = await screens(dl.projectId!, 'OI-TOU-1');
    expect(sc.fleet.find((x) => x.currency === 'SEK')!.today).toBe(today);
    expect(sc.listToday).toBe(today);
    expect(sc.statToday).toBe(today);
  });
});
