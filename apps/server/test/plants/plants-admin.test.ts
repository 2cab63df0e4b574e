import { ROLE, signCall, type AuthDat, type Envelope, type PlantWire, type ValTs } from '@sunwatch/protocol';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVCODE_5121, DEVCODE_5125 } from '@sunwatch/protocol';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';
import { insertDatalogger, insertDevice, insertPlant, insertSamples } from '../factories/telemetry-rows.js';
import { idOf, makeAccount, prepare } from '../distribution/helpers.js';

let saltSeq = 0;
/** A signed multipart upload of a picture to uploadPlantImage. */
async function upload(s: TestServer, session: AuthDat, bytes: Uint8Array, filename: string) {
  saltSeq += 1;
  const salt = String(s.clock.now() + 2_000_000 + saltSeq);
  const tail = `&action=uploadPlantImage`;
  const q = `/public/?sign=${signCall(salt, session.secret, session.token, tail)}&salt=${salt}&token=${session.token}${tail}`;
  const fd = new FormData();
  fd.set('file', new Blob([Buffer.from(bytes)]), filename);
  return (await s.request<Envelope<{ picBig: string; picSmall: string; width: number; height: number }>>(q, { method: 'POST', body: fd })).body;
}

function png(width: number, height: number): Uint8Array {
  const p = new PNG({ width, height });
  for (let i = 0; i < p.data.length; i += 4) {
    p.data[i] = (i / 4) % 256;
    p.data[i + 1] = 100;
    p.data[i + 2] = 50;
    p.data[i + 3] = 255;
  }
  return new Uint8Array(PNG.sync.write(p));
}

describe.each(engines)('plant management ($name)', (engine) => {
  let s: TestServer;
  let sessions: Map<string, AuthDat>;
  const as = (usr: string) => sessions.get(usr)!;
  let annaPlant = 0;
  let doraFirst = 0;
  let doraSecond = 0;
  /** owner_nrg's plants: UTC+8 and UTC−5, each with an inverter that made 1 kWh every hour of 2026-06-10..14 UTC. */
  let east = 0;
  let west = 0;

  const info = async (usr: string, plantid: number) => (await s.call<PlantWire>(as(usr), 'queryPlantInfo', { plantid })).dat!;

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    sessions = await prepare(s);
    const doraLogin = await s.login('owner_dora', 'Owner_2026');
    if (doraLogin.err !== 0) throw new Error(`login owner_dora: ${doraLogin.err}`);
    sessions.set('owner_dora', doraLogin.dat!);
    const anna = await idOf(s, 'owner_anna');
    annaPlant = (await s.ctx.db.selectFrom('projects').select('id').where('owner_id', '=', anna).orderBy('id').executeTakeFirstOrThrow()).id;
    // owner_dora has no plant in the demo data.
    const dora = await idOf(s, 'owner_dora');
    await s.ctx.db.deleteFrom('projects').where('owner_id', '=', dora).execute();
    // owner_nrg: two plants in two time zones with measured energy.
    const nrg = await makeAccount(s, 'owner_nrg', ROLE.OWNER, 'dealer_north', { password: 'Owner_2026' });
    sessions.set('owner_nrg', (await s.login('owner_nrg', 'Owner_2026')).dat!);
    const now = s.clock.now();
    for (const [tz, set] of [
      [28800, (id: number) => (east = id)],
      [-18000, (id: number) => (west = id)],
    ] as const) {
      const pid = await insertPlant(s.ctx.db, { owner_id: nrg, name: `nrg ${tz}`, now, tz_offset: tz, unit_profit: 0.5 });
      set(pid);
      const pn = `NRG${tz < 0 ? 'W' : 'E'}00000000001`;
      const dl = await insertDatalogger(s.ctx.db, { pn, now, owner_id: nrg, project_id: pid, tz_offset: tz });
      const dev = await insertDevice(s.ctx.db, { datalogger_id: dl, pn, devcode: 5121, devaddr: 1, sn: `${pn}S`, now, project_id: pid });
      const samples = Array.from({ length: 5 * 24 }, (_, h) => ({
        ts: Date.UTC(2026, 5, 10, h),
        values: { sy_energy_total: 1000 + h },
      }));
      await insertSamples(s.ctx.db, DEVCODE_5121, dev, samples, tz);
    }
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('an owner creates its first plant with every field; it is the default', async () => {
    const res = await s.call<{ pid: number }>(as('owner_dora'), 'addPlant', {
      name: 'Dora Roof',
      'address.timezone': 19800,
      'address.country': 'India',
      'address.province': 'Karnataka',
      'address.city': 'Bengaluru',
      'address.county': 'Urban',
      'address.town': 'Indiranagar',
      'address.village': 'HAL 2nd Stage',
      'address.address': '12 100 Feet Rd',
      'address.lon': '77.6408',
      'address.lat': '12.9784',
      'profit.unitProfit': '6.5',
      'profit.currency': 'INR',
      'profit.currencyCountry': 'IN',
      'profit.soldProfit': '3.1',
      'profit.selfProfit': '6.5',
      'profit.purchProfit': '7.2',
      'profit.consProfit': '7',
      'profit.feedProfit': '2.9',
      nominalPower: '8.2',
      energyYearEstimate: '11000',
      designCompany: 'Sun Design',
      remark: 'rooftop',
      install: '2025-03-01',
      installer: 'Ravi',
    });
    expect(res.err).toBe(0);
    doraFirst = res.dat!.pid;
    const p = await info('owner_dora', doraFirst);
    expect(p).toMatchObject({
      name: 'Dora Roof',
      isDefault: true,
      remark: 'rooftop',
      installer: 'Ravi',
      designCompany: 'Sun Design',
      nominalPower: '8.2000',
      install: '2025-03-01 00:00:00',
      address: {
        country: 'India',
        province: 'Karnataka',
        city: 'Bengaluru',
        county: 'Urban',
        town: 'Indiranagar',
        village: 'HAL 2nd Stage',
        address: '12 100 Feet Rd',
        lon: '77.6408',
        lat: '12.9784',
        timezone: 19800,
      },
      profit: {
        unitProfit: '6.5000',
        currency: 'INR',
        currencyCountry: 'IN',
        soldProfit: '3.1000',
        selfProfit: '6.5000',
        purchProfit: '7.2000',
        consProfit: '7.0000',
        feedProfit: '2.9000',
      },
    });
    const audit = await s.ctx.db.selectFrom('audit_log').selectAll().where('entity', '=', 'plant').where('entity_id', '=', String(doraFirst)).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.action).toBe('addPlant');
  });

  it('refuses values outside the rules (6) and keeps nothing', async () => {
    const base = { name: 'Bad', 'address.timezone': 3600 };
    const bads: Array<Record<string, string | number>> = [
      { 'address.timezone': 1234 },
      { 'address.lon': '181' },
      { 'address.lat': '-91' },
      { 'profit.feedProfit': '-0.1' },
      { 'profit.currency': 'XYZ' },
      { name: 'x'.repeat(65) },
      { name: '' },
      { picBig: 'https://evil.example/a.png' },
      { install: '2025-13-01' },
    ];
    for (const bad of bads) {
      const res = await s.call(as('owner_dora'), 'addPlant', { ...base, ...bad });
      expect(res.err, JSON.stringify(bad)).toBe(6);
    }
    const n = await s.ctx.db.selectFrom('projects').select('id').where('name', '=', 'Bad').execute();
    expect(n).toHaveLength(0);
  });

  it('a second plant made default takes the flag over: one default per owner', async () => {
    const res = await s.call<{ pid: number }>(as('owner_dora'), 'addPlant', { name: 'Dora Barn', 'address.timezone': 19800, isDefault: '1' });
    expect(res.err).toBe(0);
    doraSecond = res.dat!.pid;
    expect((await info('owner_dora', doraSecond)).isDefault).toBe(true);
    expect((await info('owner_dora', doraFirst)).isDefault).toBe(false);
    // Back to the first one by editPlant.
    expect((await s.call(as('owner_dora'), 'editPlant', { plantid: doraFirst, isDefault: '1' })).err).toBe(0);
    expect((await info('owner_dora', doraFirst)).isDefault).toBe(true);
    expect((await info('owner_dora', doraSecond)).isDefault).toBe(false);
  });

  it('editPlant changes only what is passed, clears with "", 271 when nothing changes, never the time zone', async () => {
    const res = await s.call(as('owner_dora'), 'editPlant', {
      plantid: doraFirst,
      remark: '',
      'profit.feedProfit': '3.3',
      'address.lon': '',
      'address.lat': '',
    });
    expect(res.err).toBe(0);
    const p = await info('owner_dora', doraFirst);
    expect(p.remark).toBe('');
    expect(p.profit.feedProfit).toBe('3.3000');
    expect(p.profit.soldProfit).toBe('3.1000');
    expect(p.address.lon).toBe('');
    expect(p.name).toBe('Dora Roof');
    expect((await s.call(as('owner_dora'), 'editPlant', { plantid: doraFirst, 'profit.feedProfit': '3.3' })).err).toBe(271);
    expect((await s.call(as('owner_dora'), 'editPlant', { plantid: doraFirst })).err).toBe(271);
    // The same time zone is accepted (vendor clients resend it), another one is not.
    expect((await s.call(as('owner_dora'), 'editPlant', { plantid: doraFirst, 'address.timezone': 19800, name: 'Dora Roof 2' })).err).toBe(0);
    expect((await s.call(as('owner_dora'), 'editPlant', { plantid: doraFirst, 'address.timezone': 3600 })).err).toBe(6);
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'plant')
      .where('entity_id', '=', String(doraFirst))
      .where('action', '=', 'editPlant')
      .orderBy('id')
      .execute();
    const first = audit.find((a) => a.after?.includes('price_feed'))!;
    expect(JSON.parse(first.before!)).toMatchObject({ remark: 'rooftop', price_feed: 2.9 });
    expect(JSON.parse(first.after!)).toMatchObject({ remark: '', price_feed: 3.3, lon: null });
  });

  it('writes follow the tree: the dealer of the owner may, another tenant and viewers may not', async () => {
    expect((await s.call(as('dealer_north'), 'editPlant', { plantid: doraFirst, installer: 'North Crew' })).err).toBe(0);
    expect((await info('owner_dora', doraFirst)).installer).toBe('North Crew');
    expect((await s.call(as('dealer_south'), 'editPlant', { plantid: doraFirst, installer: 'x' })).err).toBe(260);
    expect((await s.call(as('owner_ben'), 'delPlant', { plantid: doraSecond })).err).toBe(260);
    expect((await s.call(as('owner_anna'), 'editPlantEnergyOffset', { plantid: doraFirst, energyOffset: 1 })).err).toBe(260);
    expect((await s.call(as('viewer_cara'), 'editPlant', { plantid: annaPlant, remark: 'x' })).err).toBe(11);
    expect((await s.call(as('group_east'), 'editPlant', { plantid: annaPlant, remark: 'x' })).err).toBe(11);
    expect((await s.call(as('owner_dora'), 'editPlant', { plantid: 999_999, remark: 'x' })).err).toBe(260);
  });

  it('an administrator creates a plant for an owner of its tree only', async () => {
    const dora = await idOf(s, 'owner_dora');
    expect((await s.call(as('dealer_north'), 'addPlant', { name: 'For Dora', 'address.timezone': 0 })).err).toBe(7);
    expect((await s.call(as('dealer_north'), 'addPlant', { name: 'For Ben', 'address.timezone': 0, uid: await idOf(s, 'owner_ben') })).err).toBe(11);
    expect((await s.call(as('dealer_north'), 'addPlant', { name: 'For a dealer', 'address.timezone': 0, uid: await idOf(s, 'north_ops') })).err).toBe(6);
    expect((await s.call(as('owner_anna'), 'addPlant', { name: 'For Dora', 'address.timezone': 0, uid: dora })).err).toBe(11);
    const res = await s.call<{ pid: number }>(as('dealer_north'), 'addPlant', { name: 'For Dora', 'address.timezone': 0, uid: dora });
    expect(res.err).toBe(0);
    const row = await s.ctx.db.selectFrom('projects').selectAll().where('id', '=', res.dat!.pid).executeTakeFirstOrThrow();
    expect(row.owner_id).toBe(dora);
    expect(row.is_default).toBe(0);
    expect((await s.call(as('owner_dora'), 'delPlant', { plantid: res.dat!.pid })).err).toBe(0);
  });

  it('delPlant refuses a plant with dataloggers (517); deleting the default moves it', async () => {
    expect((await s.call(as('owner_anna'), 'delPlant', { plantid: annaPlant })).err).toBe(517);
    expect(await s.ctx.db.selectFrom('projects').select('id').where('id', '=', annaPlant).executeTakeFirst()).toBeDefined();
    expect((await info('owner_dora', doraFirst)).isDefault).toBe(true);
    expect((await s.call(as('owner_dora'), 'delPlant', { plantid: doraFirst })).err).toBe(0);
    expect((await s.call(as('owner_dora'), 'queryPlantInfo', { plantid: doraFirst })).err).toBe(260);
    expect((await info('owner_dora', doraSecond)).isDefault).toBe(true);
  });

  it('the energy offset is added to the plant total and its income', async () => {
    const total = async () => Number((await s.call<{ energy: string }>(as('owner_nrg'), 'queryPlantEnergyTotal', { plantid: east })).dat!.energy);
    const before = await total();
    expect(before).toBeGreaterThan(0);
    expect((await s.call(as('owner_nrg'), 'editPlantEnergyOffset', { plantid: east, energyOffset: '1500.5' })).err).toBe(0);
    const after = await total();
    expect(after).toBeCloseTo(before + 1500.5, 3);
    const cur = await s.call<Array<{ key: string; val: string }>>(as('owner_nrg'), 'queryPlantCurrentData', {
      plantid: east,
      par: 'ENERGY_TOTAL',
    });
    expect(Number(cur.dat![0]!.val)).toBeCloseTo(after, 3);
    expect((await s.call(as('owner_nrg'), 'editPlantEnergyOffset', { plantid: east, energyOffset: '1500.5' })).err).toBe(271);
    // A negative offset larger than the total shows 0, never a negative total.
    expect((await s.call(as('owner_nrg'), 'editPlantEnergyOffset', { plantid: east, energyOffset: String(-before - 10_000) })).err).toBe(0);
    expect(await total()).toBe(0);
    expect((await s.call(as('owner_nrg'), 'editPlantEnergyOffset', { plantid: east, energyOffset: 0 })).err).toBe(0);
    expect(await total()).toBeCloseTo(before, 3);
  });

  it('queryPlantCount: administrators count their plants, by status; owners are refused (8)', async () => {
    expect((await s.call(as('owner_anna'), 'queryPlantCount', {})).err).toBe(8);
    expect((await s.call(as('viewer_cara'), 'queryPlantCount', {})).err).toBe(8);
    const all = await s.call<{ count: number }>(as('operator'), 'queryPlantCount', {});
    const plants = await s.ctx.db.selectFrom('projects').select('id').execute();
    expect(all.dat!.count).toBe(plants.length);
    const listed = await s.call<{ total: number }>(as('dealer_north'), 'webQueryPlants', { pagesize: 50 });
    expect((await s.call<{ count: number }>(as('dealer_north'), 'queryPlantCount', {})).dat!.count).toBe(listed.dat!.total);
    let sum = 0;
    for (const status of [0, 1, 2, 3, 4]) sum += (await s.call<{ count: number }>(as('operator'), 'queryPlantCount', { status })).dat!.count;
    expect(sum).toBe(all.dat!.count);
  });

  it('fleet energy: each plant in its own time zone, the sums of the plants', async () => {
    const fleet = await s.call<{ perday: ValTs[] }>(as('owner_nrg'), 'queryPlantsEnergyMonthPerDay', { date: '2026-06' });
    expect(fleet.err).toBe(0);
    expect(fleet.dat!.perday).toHaveLength(30);
    const day = (d: number) => Number(fleet.dat!.perday[d - 1]!.val);
    // West (UTC−5): local June 9 holds UTC 00:00–04:00 of June 10 (5 samples, 4 kWh); East
    // (UTC+8): local June 10 holds UTC 00:00–15:00 (16 samples, 15 kWh) and June 10 West 24 kWh.
    expect(day(9)).toBeCloseTo(4, 4);
    expect(day(10)).toBeCloseTo(15 + 24, 4);
    const sum = new Map<string, number>();
    for (const pid of [east, west]) {
      const one = await s.call<{ perday: ValTs[] }>(as('owner_nrg'), 'queryPlantEnergyMonthPerDay', { plantid: pid, date: '2026-06' });
      for (const d of one.dat!.perday) sum.set(d.ts, (sum.get(d.ts) ?? 0) + Number(d.val));
    }
    for (const d of fleet.dat!.perday) expect(Number(d.val)).toBeCloseTo(sum.get(d.ts)!, 4);
    // The whole history: 119 kWh per plant.
    expect(fleet.dat!.perday.reduce((a, d) => a + Number(d.val), 0)).toBeCloseTo(2 * 119, 3);

    const months = await s.call<{ permonth: ValTs[] }>(as('owner_nrg'), 'queryPlantsEnergyYearPerMonth', { date: '2026' });
    expect(months.dat!.permonth).toHaveLength(12);
    expect(Number(months.dat!.permonth[5]!.val)).toBeCloseTo(238, 3);
    expect(Number(months.dat!.permonth[4]!.val)).toBe(0);
    expect(Number((await s.call<{ energy: string }>(as('owner_nrg'), 'queryPlantsEnergyYear', { date: '2026' })).dat!.energy)).toBeCloseTo(238, 3);
    expect(Number((await s.call<{ energy: string }>(as('owner_nrg'), 'queryPlantsEnergyYear', {})).dat!.energy)).toBeCloseTo(238, 3);
    expect(Number((await s.call<{ energy: string }>(as('owner_nrg'), 'queryPlantsEnergyYear', { date: '2025' })).dat!.energy)).toBe(0);
    // Another owner's fleet does not include them.
    const anna = await s.call<{ perday: ValTs[] }>(as('owner_anna'), 'queryPlantsEnergyMonthPerDay', { date: '2026-06' });
    expect(Number(anna.dat!.perday[9]!.val)).toBe(0);

    // An owner without a plant: 12 (no record) for the year, 260 for the daily profit list.
    await makeAccount(s, 'owner_nada', ROLE.OWNER, 'dealer_north', { password: 'Owner_2026' });
    const nada = (await s.login('owner_nada', 'Owner_2026')).dat!;
    expect((await s.call(nada, 'queryPlantsEnergyYear', {})).err).toBe(12);
    expect((await s.call(nada, 'queryPlantsProfitOneDay', {})).err).toBe(260);
  });

  it('queryPlantsProfitOneDay: energy, income and savings of the day per plant (its own local day), paged', async () => {
    const res = await s.call<{ total: number; page: number; pagesize: number; plant: Array<Record<string, string | number>> }>(
      as('owner_nrg'),
      'queryPlantsProfitOneDay',
      { date: '2026-06-10', page: 0, pagesize: 50 },
    );
    expect(res.err).toBe(0);
    expect(res.dat!.total).toBe(2);
    const e = res.dat!.plant.find((p) => p.pid === east)!;
    const w = res.dat!.plant.find((p) => p.pid === west)!;
    // Income is priced hour by hour from the samples (issue 15, docs/money/tariffs.md): East's last
    // sample of local June 10 is at 23:00 and the next at 00:00, so that hour's 1 kWh is June 10's
    // income (16 kWh × 0.5) while the day's energy is the counters' growth within the day (15 kWh).
    expect(e).toMatchObject({ energy: '15.0000', profit: '8.0000', currency: 'CNY' });
    expect(w).toMatchObject({ energy: '24.0000', profit: '12.0000' });
    const p = await info('owner_nrg', east);
    expect(Number(e.co2)).toBeCloseTo(15 * Number(p.profit.co2), 4);
    const paged = await s.call<{ total: number; plant: unknown[] }>(as('owner_nrg'), 'queryPlantsProfitOneDay', { page: 1, pagesize: 1 });
    expect(paged.dat!.plant).toHaveLength(1);
    expect(paged.dat!.total).toBe(2);
  });

  it('queryPlantDeviceView: the plant tree with live figures, as queryPlantDeviceStatus names it', async () => {
    const view = await s.call<{
      pid: number;
      collector: Array<{ pn: string; signal: number; device: Array<{ sn: string; outputPower: string; energyToday: string }> }>;
    }>(as('owner_anna'), 'queryPlantDeviceView', { plantid: annaPlant });
    expect(view.err).toBe(0);
    const status = await s.call<{ collector: Array<{ pn: string; device: Array<{ sn: string }> }> }>(
      as('owner_anna'),
      'queryPlantDeviceStatus',
      { plantid: annaPlant },
    );
    expect(view.dat!.collector.map((c) => c.pn)).toEqual(status.dat!.collector.map((c) => c.pn));
    expect(view.dat!.collector.flatMap((c) => c.device.map((d) => d.sn)).sort()).toEqual(
      status.dat!.collector.flatMap((c) => c.device.map((d) => d.sn)).sort(),
    );
    expect(view.dat!.collector[0]!.pn).toBe('SWNORTH0000001');
    expect((await s.call(as('owner_ben'), 'queryPlantDeviceView', { plantid: annaPlant })).err).toBe(260);
  });

  it('queryPlantEnvMonitor and CURRENT_RADIANT / CURRENT_TEMP read the plant\'s environment monitor', async () => {
    const now = s.clock.now();
    const dl = await s.ctx.db.selectFrom('dataloggers').select(['id', 'pn']).where('project_id', '=', east).executeTakeFirstOrThrow();
    // Without a monitor: 265, and no irradiance figure.
    expect((await s.call(as('owner_nrg'), 'queryPlantEnvMonitor', { plantid: east })).err).toBe(265);
    const cur = async (par: string) =>
      (await s.call<Array<{ key: string; val: string }>>(as('owner_nrg'), 'queryPlantCurrentData', { plantid: east, par })).dat!.map((x) => x.val);
    expect(await cur('CURRENT_RADIANT')).toEqual(['--']);
    const dev = await insertDevice(s.ctx.db, { datalogger_id: dl.id, pn: dl.pn, devcode: 5125, devaddr: 3, sn: 'NRGENV0001', now, project_id: east });
    await insertSamples(
      s.ctx.db,
      DEVCODE_5125,
      dev,
      [
        {
          ts: now - 60_000,
          values: {
            sy_irradiance: 650,
            sy_module_temperature: 38.4,
            sy_ambient_temperature: 21.5,
            sy_wind_speed: 3.2,
            sy_irradiation_today: 2.75,
          },
        },
      ],
      28800,
    );
    const env = await s.call<{ device: Array<Record<string, string | number>> }>(as('owner_nrg'), 'queryPlantEnvMonitor', { plantid: east });
    expect(env.err).toBe(0);
    expect(env.dat!.device).toEqual([
      expect.objectContaining({
        sn: 'NRGENV0001',
        devcode: 5125,
        devtype: 768,
        irradiance: '650',
        moduleTemp: '38.4',
        ambientTemp: '21.5',
        windSpeed: '3.2',
        irradiationToday: '2.75',
      }),
    ]);
    expect(await cur('CURRENT_RADIANT,CURRENT_TEMP')).toEqual(['650.0000', '21.5000']);
    // It adds no energy to the plant (no generation counters).
    const month = await s.call<{ perday: ValTs[] }>(as('owner_nrg'), 'queryPlantEnergyMonthPerDay', { plantid: east, date: '2026-06' });
    expect(Number(month.dat!.perday[9]!.val)).toBeCloseTo(15, 4);
    expect((await s.call(as('owner_ben'), 'queryPlantEnvMonitor', { plantid: east })).err).toBe(260);
    expect((await s.call(as('owner_nrg'), 'queryPlantEnvMonitor', { plantid: west })).err).toBe(265);
  });

  it('uploads a plant picture: stored outside the database with a thumbnail, served by its URL', async () => {
    const res = await upload(s, as('owner_dora'), png(800, 600), 'roof.png');
    expect(res.err).toBe(0);
    const { picBig, picSmall } = res.dat!;
    expect(picBig).toMatch(/^\/files\/plant\/[0-9a-f]{32}\.png$/);
    expect(picSmall).toMatch(/^\/files\/plant\/[0-9a-f]{32}-s\.png$/);
    const big = await fetch(`${s.url}${picBig}`);
    expect(big.status).toBe(200);
    expect(big.headers.get('content-type')).toBe('image/png');
    const thumb = await fetch(`${s.url}${picSmall}`);
    const t = PNG.sync.read(Buffer.from(await thumb.arrayBuffer()));
    expect([t.width, t.height]).toEqual([320, 240]);
    // Used by editPlant; queryPlantInfo hands both out.
    expect((await s.call(as('owner_dora'), 'editPlant', { plantid: doraSecond, picBig, picSmall })).err).toBe(0);
    expect(await info('owner_dora', doraSecond)).toMatchObject({ picBig, picSmall });
    // Not a picture, too big, unknown names.
    expect((await upload(s, as('owner_dora'), new TextEncoder().encode('not an image'), 'x.png')).err).toBe(6);
    expect((await upload(s, as('owner_dora'), png(10, 10), 'x.gif')).err).toBe(6);
    expect((await upload(s, as('owner_dora'), new Uint8Array(1024 * 1024 + 10).fill(1), 'x.jpg')).err).toBe(13);
    expect((await upload(s, as('viewer_cara'), png(10, 10), 'x.png')).err).toBe(11);
    expect((await fetch(`${s.url}/files/plant/${'0'.repeat(32)}.png`)).status).toBe(404);
    expect((await fetch(`${s.url}/files/plant/..%2Fsunwatch.db`)).status).toBe(404);
  });
});
