import { DEVCODE_2341, DEVCODE_5121, ROLE, type AuthDat } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  insertDatalogger,
  insertDevice,
  insertPlant,
  insertSamples,
} from '../factories/telemetry-rows.js';
import { localDay } from '../../src/shared/local-time.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';

const PASSWORDS: Record<string, string> = {
  operator: 'Operator_2026',
  sunmaker: 'Maker_2026',
  dealer_north: 'Dealer_2026',
  dealer_south: 'Dealer_2026',
  north_ops: 'SubAdmin_2026',
  group_east: 'Group_2026',
  owner_anna: 'Owner_2026',
  owner_ben: 'Owner_2026',
  viewer_cara: 'Viewer_2026',
};

const TZ = 28800;
const TS_RE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

// The wall clock sits inside the window where this file used to fail every day (16:00–16:56
// UTC: the first hour of the UTC+8 plant's day): with the server's clock pinned (FIXED_NOW),
// nothing may depend on it. Only Date is faked (timers stay real) and it keeps moving.
beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 24, 16, 20), shouldAdvanceTime: true });
});
afterAll(() => {
  vi.useRealTimers();
});

describe.each(engines)('telemetry actions ($name)', (engine) => {
  let s: TestServer;
  const sessions = new Map<string, AuthDat>();
  const uid = new Map<string, number>();
  let plantA = 0;
  let plantB = 0;
  const A = { pn: 'TSTA0000000001', devcode: 5121, devaddr: 1, sn: 'SNA-0001' };
  const B = { pn: 'TSTB0000000001', devcode: 2341, devaddr: 1, sn: 'SNB-0001' };
  let now = 0;

  const call = <T = unknown>(who: string, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions.get(who)!, action, params);
  const tuple = (d: typeof A) => ({ pn: d.pn, devcode: d.devcode, devaddr: d.devaddr, sn: d.sn });

  beforeAll(async () => {
    // "today" is the UTC+8 plant's: a pinned clock (the samples of today end at `now`; with the
    // wall clock, 16:00–16:56 UTC left fewer than 12 of them after the plant's midnight)
    s = await startTestServer(engine, { now: FIXED_NOW });
    const db = s.ctx.db;
    now = s.clock.now();
    for (const [usr, pwd] of Object.entries(PASSWORDS)) {
      const res = await s.login(usr, pwd);
      expect(res.err, usr).toBe(0);
      sessions.set(usr, res.dat!);
      uid.set(usr, res.dat!.uid);
    }
    // An owner with nothing yet.
    const ben = await s.ctx.repos.accounts.findByUsr('owner_ben');
    const empty = await s.ctx.repos.accounts.insert({
      ...ben!,
      id: undefined as never,
      usr: 'owner_empty',
      parent_id: ben!.parent_id,
      created_at: now,
      updated_at: now,
    } as never);
    expect(empty.role).toBe(ROLE.OWNER);
    const emptyLogin = await s.login('owner_empty', 'Owner_2026');
    expect(emptyLogin.err).toBe(0);
    sessions.set('owner_empty', emptyLogin.dat!);

    plantA = await insertPlant(db, {
      owner_id: uid.get('owner_anna')!,
      name: 'Anna Roof',
      now,
      unit_profit: 1.2,
      currency: 'CNY',
      lon: 114.05,
      lat: 22.54,
    });
    plantB = await insertPlant(db, {
      owner_id: uid.get('owner_ben')!,
      name: 'Ben Barn',
      now,
      unit_profit: 0.5,
      currency: 'EUR',
    });
    const dlA = await insertDatalogger(db, {
      pn: A.pn,
      now,
      owner_id: uid.get('owner_anna')!,
      admin_id: uid.get('dealer_north')!,
      vendor_id: uid.get('sunmaker')!,
      project_id: plantA,
    });
    const dlB = await insertDatalogger(db, {
      pn: B.pn,
      now,
      owner_id: uid.get('owner_ben')!,
      admin_id: uid.get('dealer_south')!,
      vendor_id: uid.get('sunmaker')!,
      project_id: plantB,
    });
    const devA = await insertDevice(db, { datalogger_id: dlA, ...A, now, project_id: plantA });
    const devB = await insertDevice(db, { datalogger_id: dlB, ...B, now, project_id: plantB });
    await db
      .insertInto('viewer_projects')
      .values({ viewer_id: uid.get('viewer_cara')!, project_id: plantA })
      .execute();

    // Device A: yesterday ended at 100.0 kWh; today 12 samples every 5 minutes, +0.5 kWh each.
    const todayStart = Math.floor((now + TZ * 1000) / 86400000) * 86400000 - TZ * 1000;
    const samplesA: Array<{ ts: number; values: Record<string, number> }> = [
      { ts: todayStart - 3600_000, values: { sy_energy_total: 95, pv_output_power: 0 } },
      { ts: todayStart - 600_000, values: { sy_energy_total: 100, pv_output_power: 100 } },
    ];
    const base = Math.max(todayStart + 60_000, now - 12 * 300_000);
    for (let i = 0; i < 12; i++) {
      samplesA.push({
        ts: base + i * 300_000,
        values: {
          sy_energy_total: 100 + 0.5 * (i + 1),
          pv_output_power: 3000 + i * 100,
          gd_l1_voltage: 230.5,
          sy_status: 1,
        },
      });
    }
    await insertSamples(
      db,
      DEVCODE_5121,
      devA,
      samplesA.filter((x) => x.ts <= now),
      TZ,
    );
    await insertSamples(db, DEVCODE_2341, devB, [{ ts: now - 60_000, values: {} }], TZ);
    await db
      .insertInto('alarms')
      .values({
        datalogger_id: dlA,
        device_id: devA,
        level: 0,
        code: 1,
        description: 'test',
        started_at: now - 3600_000,
        ended_at: null,
        handled: 0,
      })
      .execute();
  });
  afterAll(async () => {
    await s?.stop();
  });

  describe('plants', () => {
    it('lists only the plants in scope, with the vendor shape', async () => {
      const anna = await call<{
        total: number;
        page: number;
        pagesize: number;
        plant: Array<{ pid: number; uid: number; address: { timezone: number } }>;
      }>('owner_anna', 'queryPlants', { page: 0, pagesize: 10 });
      expect(anna.err).toBe(0);
      expect(anna.dat!.plant.map((p) => p.pid)).toContain(plantA);
      expect(anna.dat!.plant.map((p) => p.pid)).not.toContain(plantB);
      expect(anna.dat!).toMatchObject({ page: 0, pagesize: 10 });
      const p = anna.dat!.plant.find((x) => x.pid === plantA)!;
      expect(p).toMatchObject({ uid: uid.get('owner_anna'), address: { timezone: TZ } });
      expect(typeof (p as unknown as { nominalPower: unknown }).nominalPower).toBe('string');
      expect((p as unknown as { gts: string }).gts).toMatch(TS_RE);

      for (const who of ['operator', 'sunmaker', 'group_east']) {
        const r = await call<{ plant: Array<{ pid: number }> }>(who, 'queryPlants', { pagesize: 50 });
        const ids = r.dat!.plant.map((x) => x.pid);
        expect(ids, who).toContain(plantA);
        if (who !== 'group_east') expect(ids, who).toContain(plantB);
      }
      const north = await call<{ plant: Array<{ pid: number }> }>('dealer_north', 'queryPlants', { pagesize: 50 });
      expect(north.dat!.plant.map((x) => x.pid)).toContain(plantA);
      expect(north.dat!.plant.map((x) => x.pid)).not.toContain(plantB);
      const ops = await call<{ plant: Array<{ pid: number }> }>('north_ops', 'queryPlants', { pagesize: 50 });
      expect(ops.dat!.plant.map((x) => x.pid)).toContain(plantA);
      expect(ops.dat!.plant.map((x) => x.pid)).not.toContain(plantB);
      const cara = await call<{ plant: Array<{ pid: number }> }>('viewer_cara', 'queryPlants', { pagesize: 50 });
      expect(cara.dat!.plant.map((x) => x.pid)).toEqual(expect.arrayContaining([plantA]));
      expect(cara.dat!.plant.map((x) => x.pid)).not.toContain(plantB);
    });

    it("answers err 260 for another tenant's plant on every plant action", async () => {
      const actions: Array<[string, Record<string, string | number>]> = [
        ['queryPlantInfo', {}],
        ['queryPlantDeviceStatus', {}],
        ['queryPlantCurrentData', { par: 'ENERGY_TODAY' }],
        ['queryPlantDeviceDesignatedInformation', { devtype: 512, parameter: 'pv_output_power' }],
        ['queryPlantActiveOuputPowerOneDay', { date: '2025-01-01' }],
        ['queryPlantEnergyMonthPerDay', { date: '2025-01' }],
        ['queryPlantEnergyYearPerMonth', { date: '2025' }],
        ['queryPlantEnergyTotalPerYear', {}],
        ['queryPlantEnergyDay', {}],
        ['queryPlantEnergyMonth', {}],
        ['queryPlantEnergyYear', {}],
        ['queryPlantEnergyTotal', {}],
        ['queryPlantActiveOuputPowerCurrent', {}],
        ['queryPlantDeviceChartsFieldsByType', { devcode: 5121, devtype: 512, type: 1 }],
        ['queryCollectors', {}],
      ];
      for (const [action, extra] of actions) {
        for (const who of ['owner_ben', 'dealer_south', 'viewer_cara']) {
          const r = await call(who, action, { plantid: who === 'viewer_cara' ? plantB : plantA, ...extra });
          expect(r.err, `${who} ${action}`).toBe(260);
          expect(r.dat, `${who} ${action}`).toBeUndefined();
        }
        expect((await call('owner_anna', action, { plantid: 999999, ...extra })).err, action).toBe(260);
      }
    });

    it('serves plant figures from latest values and rollups', async () => {
      const cur = await call<Array<{ key: string; val: string }>>('owner_anna', 'queryPlantCurrentData', {
        plantid: plantA,
        par: 'CURRENT_POWER,ENERGY_TODAY,ENERGY_PROCEEDS,BATTERY_SOC',
      });
      expect(cur.err).toBe(0);
      expect(cur.dat!.map((x) => x.key)).toEqual(['CURRENT_POWER', 'ENERGY_TODAY', 'ENERGY_PROCEEDS', 'BATTERY_SOC']);
      const today = Number(cur.dat![1]!.val);
      expect(today).toBeGreaterThan(0);
      expect(Number(cur.dat![0]!.val)).toBeGreaterThan(3);
      expect((await call('owner_anna', 'queryPlantCurrentData', { plantid: plantA, par: 'NOPE' })).err).toBe(6);

      const day = await call<{ energy: string }>('owner_anna', 'queryPlantEnergyDay', { plantid: plantA });
      expect(day.desc).toBe('ERR_NONE');
      expect(Number(day.dat!.energy)).toBeCloseTo(today, 4);
      const d = localDay(now, TZ);
      const ym = `${Math.floor(d / 10000)}-${String(Math.floor(d / 100) % 100).padStart(2, '0')}`;
      const month = await call<{ perday: Array<{ val: string; ts: string }> }>(
        'owner_anna',
        'queryPlantEnergyMonthPerDay',
        { plantid: plantA, date: ym },
      );
      expect(month.err).toBe(0);
      expect(month.dat!.perday.length).toBeGreaterThanOrEqual(28);
      expect(month.dat!.perday[0]!.ts).toBe(`${ym}-01 00:00:00`);
      expect(month.dat!.perday.reduce((a, x) => a + Number(x.val), 0)).toBeGreaterThan(0);
      expect(month.dat!.perday.every((x) => /^\d+\.\d{4}$/.test(x.val))).toBe(true);
      const year = await call<{ permonth: unknown[] }>('owner_anna', 'queryPlantEnergyYearPerMonth', {
        plantid: plantA,
        date: ym.slice(0, 4),
      });
      expect(year.dat!.permonth).toHaveLength(12);
      const total = await call<{ peryear: Array<{ ts: string }> }>('owner_anna', 'queryPlantEnergyTotalPerYear', {
        plantid: plantA,
      });
      expect(total.dat!.peryear.at(-1)!.ts).toBe(`${ym.slice(0, 4)}-01-01 00:00:00`);
      const curve = await call<{ outputPower: Array<{ val: string; ts: string }> }>(
        'owner_anna',
        'queryPlantActiveOuputPowerOneDay',
        {
          plantid: plantA,
          date: `${ym}-${String(d % 100).padStart(2, '0')}`,
        },
      );
      expect(curve.err).toBe(0);
      expect(curve.dat!.outputPower.length).toBeGreaterThan(0);
      expect(curve.dat!.outputPower[0]!.ts).toMatch(TS_RE);
      expect(
        (await call('owner_anna', 'queryPlantActiveOuputPowerOneDay', { plantid: plantA, date: '2001-01-01' })).err,
      ).toBe(12);

      const status = await call<{ collector: Array<{ pn: string; device: Array<{ sn: string; comStatus: number }> }> }>(
        'owner_anna',
        'queryPlantDeviceStatus',
        { plantid: plantA },
      );
      expect(status.dat!.collector[0]).toMatchObject({ pn: A.pn, device: [{ sn: A.sn, comStatus: 1 }] });

      const web = await call<{ total: number; plant: Array<{ pid: number; energy: string; outputPower: string }> }>(
        'owner_anna',
        'webQueryPlants',
        { page: 0, pagesize: 10 },
      );
      const row = web.dat!.plant.find((p) => p.pid === plantA)!;
      expect(Number(row.energy)).toBeCloseTo(today, 4);
      const map = await call<{ plant: Array<{ pid: number; lon: string }> }>('owner_anna', 'webQueryPlantsMap');
      expect(map.dat!.plant.find((p) => p.pid === plantA)!.lon).toBe('114.05');
      const info = await call<{ info: Array<{ pid: number }> }>('owner_ben', 'queryPlantsInfo');
      expect(info.dat!.info.map((x) => x.pid)).not.toContain(plantA);
    });

    it('answers empty lists for an account that has nothing', async () => {
      expect((await call('owner_empty', 'queryPlants')).dat).toEqual({ total: 0, page: 0, pagesize: 10, plant: [] });
      expect((await call('owner_empty', 'webQueryPlants')).dat).toEqual({ total: 0, page: 0, pagesize: 10, plant: [] });
      expect((await call('owner_empty', 'webQueryDeviceEs')).dat).toEqual({
        total: 0,
        page: 0,
        pagesize: 10,
        device: [],
      });
      expect((await call('owner_empty', 'webQueryCollectorsEs')).dat).toEqual({
        total: 0,
        page: 0,
        pagesize: 10,
        collector: [],
      });
      expect((await call('owner_empty', 'queryCollectors')).dat).toEqual({
        total: 0,
        page: 0,
        pagesize: 10,
        collector: [],
      });
      expect((await call('owner_empty', 'queryPlantsInfo')).dat).toEqual({ info: [] });
      expect((await call('owner_empty', 'queryPlants', { pagesize: 51 })).err).toBe(6);
    });
  });

  describe('dataloggers', () => {
    it("answers err 257 for another tenant's PN, batch lookups fail fast", async () => {
      const ok = await call<{
        collector: Array<{ pn: string; datFetch: number; timezone: number; uid: number; pid: number }>;
      }>('owner_anna', 'queryCollectorInfo', { pn: A.pn });
      expect(ok.err).toBe(0);
      expect(ok.dat!.collector).toEqual([
        {
          pn: A.pn,
          alias: A.pn,
          datFetch: 300,
          timezone: TZ,
          load: 1,
          status: 0,
          uid: uid.get('owner_anna'),
          pid: plantA,
        },
      ]);
      for (const who of ['owner_ben', 'dealer_south', 'owner_empty']) {
        for (const action of ['queryCollectorInfo', 'queryCollectorStatus', 'queryCollectorDevices']) {
          const r = await call(who, action, { pn: A.pn });
          expect(r.err, `${who} ${action}`).toBe(257);
          expect(r.dat).toBeUndefined();
        }
      }
      expect((await call('sunmaker', 'queryCollectorStatus', { pn: `${A.pn},${B.pn}` })).dat).toEqual({
        collector: [
          { pn: A.pn, status: 0 },
          { pn: B.pn, status: 0 },
        ],
      });
      expect((await call('owner_anna', 'queryCollectorStatus', { pn: `${A.pn},${B.pn}` })).err).toBe(257);
      const many = Array.from({ length: 257 }, (_, i) => `X${i}`).join(',');
      expect((await call('owner_anna', 'queryCollectorInfo', { pn: many })).err).toBe(13);
      expect((await call('owner_anna', 'queryCollectors', { pn: B.pn })).err).toBe(257);
      const devs = await call<{ dev: Array<{ sn: string; devcode: number; devaddr: number }> }>(
        'owner_anna',
        'queryCollectorDevices',
        { pn: A.pn },
      );
      expect(devs.dat!.dev[0]).toMatchObject({ sn: A.sn, devcode: 5121, devaddr: 1 });
    });

    it('lists dataloggers in scope (distributor by admin_id, manufacturer by vendor_id, viewer by plant)', async () => {
      const pns = async (who: string, extra: Record<string, string | number> = {}) =>
        (
          await call<{ collector: Array<{ pn: string }> }>(who, 'webQueryCollectorsEs', { pagesize: 50, ...extra })
        ).dat!.collector.map((c) => c.pn);
      expect(await pns('dealer_north')).toContain(A.pn);
      expect(await pns('dealer_north')).not.toContain(B.pn);
      expect(await pns('sunmaker')).toEqual(expect.arrayContaining([A.pn, B.pn]));
      expect(await pns('viewer_cara')).toContain(A.pn);
      expect(await pns('viewer_cara')).not.toContain(B.pn);
      expect(await pns('sunmaker', { search: 'tstb' })).toEqual([B.pn]);
      expect(await pns('sunmaker', { statusFilter: 2, search: 'TST' })).toEqual([]);
      expect(await pns('sunmaker', { statusFilter: 1, search: 'TST' })).toEqual([A.pn, B.pn]);
    });
  });

  describe('devices', () => {
    it("answers err 258 for another tenant's device on every device action", async () => {
      const actions: Array<[string, Record<string, string | number>]> = [
        ['queryDeviceInfo', {}],
        ['queryDeviceStatus', {}],
        ['queryDeviceLastData', {}],
        ['querySPDeviceLastData', {}],
        ['webQueryDeviceEnergyFlowEs', {}],
        ['queryDeviceParsEs', {}],
        ['queryDeviceChartsFieldsEs', {}],
        ['querySPKeyParameters', {}],
        ['queryDeviceRealLastData', {}],
        [
          'queryDeviceChartFieldDetailData',
          { field: 'pv_output_power', sdate: '2025-01-01 00:00:00', edate: '2025-01-01 23:59:59' },
        ],
        ['querySPDeviceKeyParameterOneDay', { parameter: 'PV_OUTPUT_POWER', date: '2025-01-01' }],
        ['queryDeviceDataOneDay', { date: '2025-01-01' }],
        ['queryDeviceDataOneDayPaging', { date: '2025-01-01' }],
        ['queryDeviceActiveOuputPowerOneDay24Hour', { date: '2025-01-01' }],
        ['webQueryDeviceStatistic', {}],
        ['webQueryDeviceEnergyChart', { view: 'month' }],
        ['webQueryDeviceParamCurves', { fields: 'pv_output_power', sdate: '2025-01-01', edate: '2025-01-02' }],
        ['focusDevice', {}],
        ['unfocusDevice', {}],
      ];
      for (const [action, extra] of actions) {
        for (const who of ['owner_ben', 'dealer_south', 'owner_empty']) {
          const r = await call(who, action, { ...tuple(A), ...extra });
          expect(r.err, `${who} ${action}`).toBe(258);
          expect(r.dat).toBeUndefined();
        }
        expect((await call('viewer_cara', action, { ...tuple(B), ...extra })).err, `cara ${action}`).toBe(258);
        expect((await call('owner_anna', action, { sn: 'NOPE', ...extra })).err, action).toBe(258);
      }
      expect(
        (await call('owner_anna', 'queryDeviceInfo', { device: `${A.pn},5121,1,${A.sn};${B.pn},2341,1,${B.sn}` })).err,
      ).toBe(258);
    });

    it('serves latest values and lists with the vendor shapes', async () => {
      const last = await call<{ gts: string; pars: Record<string, Array<{ id: string; par: string; val: string }>> }>(
        'viewer_cara',
        'querySPDeviceLastData',
        tuple(A),
      );
      expect(last.err).toBe(0);
      expect(last.dat!.gts).toMatch(TS_RE);
      expect(last.dat!.pars.gd_!.find((x) => x.id === 'gd_l1_voltage')!.val).toBe('230.5');
      expect(last.dat!.pars.gd_!.find((x) => x.id === 'gd_l1_voltage')!.par).toBe('Grid Voltage L1');
      const lastDe = await call<{ pars: Record<string, Array<{ id: string; par: string; val: string }>> }>(
        'owner_anna',
        'querySPDeviceLastData',
        { ...tuple(A), i18n: 'de_DE' },
      );
      expect(lastDe.dat!.pars.gd_!.find((x) => x.id === 'gd_l1_voltage')).toMatchObject({
        par: 'Netzspannung L1',
        val: '230.5',
      });
      const flat = await call<Array<{ title: string; val: string }>>('owner_anna', 'queryDeviceLastData', { sn: A.sn });
      expect(flat.dat![1]!.val).toMatch(TS_RE);
      const flow = await call<{ pv_status: Array<{ par: string; status: number }> }>(
        'owner_anna',
        'webQueryDeviceEnergyFlowEs',
        tuple(A),
      );
      expect(flow.dat!.pv_status[0]).toMatchObject({ par: 'pv_output_power', status: 1 });
      const info = await call<{ device: unknown[] }>('sunmaker', 'queryDeviceInfo', {
        device: `${A.pn},5121,1,${A.sn};${B.pn},2341,1,${B.sn}`,
      });
      expect(info.dat!.device).toHaveLength(2);
      expect(info.dat!.device[0]).toMatchObject({
        pn: A.pn,
        devcode: 5121,
        devaddr: 1,
        sn: A.sn,
        timezone: TZ,
        status: 0,
        pid: plantA,
      });
      const real = await call<Record<string, { val: string; ts: string }>>(
        'owner_anna',
        'queryDeviceRealLastData',
        tuple(A),
      );
      expect(real.dat!.pv_output_power!.val).toBe('4.1000');

      const list = await call<{
        total: number;
        device: Array<{ sn: string; focus: boolean; energyToday: string; outpower: string; devcode: number }>;
      }>('dealer_north', 'webQueryDeviceEs', { pagesize: 50 });
      expect(list.dat!.device.map((d) => d.sn)).toContain(A.sn);
      expect(list.dat!.device.map((d) => d.sn)).not.toContain(B.sn);
      const rowA = list.dat!.device.find((d) => d.sn === A.sn)!;
      expect(rowA.outpower).toBe('4.1000');
      expect(Number(rowA.energyToday)).toBeGreaterThan(0);
      expect(rowA.focus).toBe(false);
      expect((await call('dealer_north', 'focusDevice', tuple(A))).err).toBe(0);
      const focused = await call<{ device: Array<{ sn: string; focus: boolean }> }>(
        'dealer_north',
        'webQueryDeviceEs',
        { focus: 1 },
      );
      expect(focused.dat!.device).toEqual([expect.objectContaining({ sn: A.sn, focus: true })]);
      const searched = await call<{ device: Array<{ sn: string }> }>('sunmaker', 'webQueryDeviceEs', {
        search: 'tstb',
        pagesize: 50,
      });
      expect(searched.dat!.device.map((d) => d.sn)).toEqual([B.sn]);
      const bySn = await call<{ device: Array<{ sn: string }> }>('sunmaker', 'webQueryDeviceEs', {
        search: 'sna-',
        pagesize: 50,
      });
      expect(bySn.dat!.device.map((d) => d.sn)).toEqual([A.sn]);
      const online = await call<{ device: Array<{ sn: string }> }>('sunmaker', 'webQueryDeviceEs', {
        statusFilter: 1,
        search: 'SN',
        pagesize: 50,
      });
      expect(online.dat!.device.map((d) => d.sn).sort()).toEqual([A.sn, B.sn]);
      const offline = await call<{ device: unknown[] }>('sunmaker', 'webQueryDeviceEs', {
        statusFilter: 2,
        search: 'SN',
        pagesize: 50,
      });
      expect(offline.dat!.device).toEqual([]);
      const vendorStatus = await call<{ device: unknown[] }>('sunmaker', 'webQueryDeviceEs', { status: 0, pn: A.pn });
      expect(vendorStatus.dat!.device).toHaveLength(1);
      expect((await call('dealer_north', 'unfocusDevice', tuple(A))).err).toBe(0);
    });

    it('serves day curves, tables, statistics and parameter analysis', async () => {
      const d = localDay(now, TZ);
      const date = `${Math.floor(d / 10000)}-${String(Math.floor(d / 100) % 100).padStart(2, '0')}-${String(d % 100).padStart(2, '0')}`;
      const detail = await call<Array<{ key: string; val: string }>>('owner_anna', 'queryDeviceChartFieldDetailData', {
        ...tuple(A),
        field: 'pv_output_power',
        precision: 2,
        sdate: `${date} 00:00:00`,
        edate: `${date} 23:59:59`,
      });
      expect(detail.err).toBe(0);
      expect(detail.dat!.at(-1)!.val).toBe('4.10');
      expect(detail.dat![0]!.key).toMatch(TS_RE);
      expect(
        (
          await call('owner_anna', 'queryDeviceChartFieldDetailData', {
            ...tuple(A),
            field: 'pv_output_power',
            sdate: '2025-01-01 00:00:00',
            edate: '2025-01-03 00:00:00',
          })
        ).err,
      ).toBe(6);
      const key = await call<{ detail: Array<{ val: string }> }>('owner_anna', 'querySPDeviceKeyParameterOneDay', {
        ...tuple(A),
        parameter: 'PV_OUTPUT_POWER',
        date,
      });
      expect(key.dat!.detail.at(-1)!.val).toBe('4.1000');
      const table = await call<{ title: Array<{ title: string }>; row: Array<{ realtime: boolean; field: string[] }> }>(
        'owner_anna',
        'queryDeviceDataOneDay',
        { ...tuple(A), date },
      );
      expect(table.dat!.title[0]!.title).toBe('id');
      expect(table.dat!.row.at(-1)!.realtime).toBe(true);
      expect(table.dat!.row[0]!.field[1]).toMatch(TS_RE);
      const paged = await call<{ total: number; page: number; pagesize: number; row: unknown[] }>(
        'owner_anna',
        'queryDeviceDataOneDayPaging',
        { ...tuple(A), date, page: 0, pagesize: 5 },
      );
      expect(paged.dat!).toMatchObject({ page: 0, pagesize: 5 });
      expect(paged.dat!.row).toHaveLength(5);
      expect((await call('owner_anna', 'queryDeviceDataOneDay', { ...tuple(A), date: '2001-01-01' })).err).toBe(12);
      const curve = await call<Array<{ val: string }>>('owner_anna', 'queryDeviceActiveOuputPowerOneDay24Hour', {
        ...tuple(A),
        date,
      });
      expect(curve.dat!.at(-1)!.val).toBe('4.1000');

      const stat = await call<{
        kinds: string[];
        energy: Record<string, { today: string; total: string }>;
        income: { today: string };
        currency: string;
      }>('owner_anna', 'webQueryDeviceStatistic', tuple(A));
      expect(stat.dat!.kinds).toEqual(['generated']);
      const genToday = Number(stat.dat!.energy.generated!.today);
      expect(genToday).toBeGreaterThan(0);
      expect(Number(stat.dat!.income.today)).toBeCloseTo(genToday * 1.2, 3);
      expect(stat.dat!.currency).toBe('CNY');
      const chart = await call<{ ts: string[]; series: Array<{ kind: string; val: string[] }> }>(
        'owner_anna',
        'webQueryDeviceEnergyChart',
        { ...tuple(A), view: 'month' },
      );
      expect(chart.dat!.series[0]!.kind).toBe('generated');
      expect(chart.dat!.ts.length).toBe(chart.dat!.series[0]!.val.length);
      const dayChart = await call<{ ts: string[] }>('owner_anna', 'webQueryDeviceEnergyChart', {
        ...tuple(A),
        view: 'day',
      });
      expect(dayChart.dat!.ts).toHaveLength(24);

      const curves = await call<{ curves: Array<{ field: string; data: unknown[] }> }>(
        'owner_anna',
        'webQueryDeviceParamCurves',
        { ...tuple(A), fields: 'pv_output_power,gd_active_power', sdate: date, edate: date },
      );
      expect(curves.err).toBe(0);
      expect(curves.dat!.curves.map((c) => c.field)).toEqual(['pv_output_power', 'gd_active_power']);
      const eight =
        'pv_output_power,gd_active_power,gd_l1_voltage,gd_l2_voltage,gd_l3_voltage,gd_frequency,gd_l1_current,pv_pv1_voltage';
      const tooMany = await call('owner_anna', 'webQueryDeviceParamCurves', {
        ...tuple(A),
        fields: eight,
        sdate: date,
        edate: date,
      });
      expect(tooMany.err).toBe(6);
      expect(tooMany.desc).toContain('rules.parameters');
      const units = await call('owner_anna', 'webQueryDeviceParamCurves', {
        ...tuple(A),
        fields: 'pv_output_power,gd_l1_voltage,gd_frequency',
        sdate: date,
        edate: date,
      });
      expect(units.desc).toBe('ERR_FORMAT_ERROR(rules.parameters.units)');
      const compare = await call('owner_anna', 'webQueryDeviceParamCurves', {
        ...tuple(A),
        fields: 'gd_l1_voltage,gd_l2_voltage,gd_l3_voltage,pv_output_power,gd_active_power',
        sdate: date,
        edate: date,
        mode: 'compare',
      });
      expect(compare.desc).toBe('ERR_FORMAT_ERROR(rules.parameters.maxCompare)');
      const long = await call('owner_anna', 'webQueryDeviceParamCurves', {
        ...tuple(A),
        fields: 'pv_output_power',
        sdate: '2025-01-01',
        edate: '2025-02-05',
      });
      expect(long.desc).toBe('ERR_FORMAT_ERROR(rules.dateRange.reportTooLong)');
    });
  });

  describe('overview', () => {
    it('counts only what the caller may see', async () => {
      type O = {
        plant: { total: number };
        device: { total: number; byStatus: number[] };
        collector: { total: number };
        energyToday: string;
        alarmsPerDay: Array<{ date: string; count: number }>;
        activeAlarms: number;
        currency: string;
        incomes: Array<{ currency: string }>;
      };
      const anna = await call<O>('owner_anna', 'webQueryFleetOverview', { timezone: TZ });
      expect(anna.err).toBe(0);
      expect(anna.dat!.device.total).toBeGreaterThanOrEqual(1);
      expect(Number(anna.dat!.energyToday)).toBeGreaterThan(0);
      expect(anna.dat!.alarmsPerDay).toHaveLength(7);
      expect(anna.dat!.alarmsPerDay.reduce((a, x) => a + x.count, 0)).toBeGreaterThanOrEqual(1);
      expect(anna.dat!.incomes.map((x) => x.currency)).toContain('CNY');
      const empty = await call<O>('owner_empty', 'webQueryFleetOverview');
      expect(empty.dat!).toMatchObject({
        plant: { total: 0 },
        device: { total: 0 },
        collector: { total: 0 },
        energyToday: '0.0000',
        activeAlarms: 0,
      });
      const ben = await call<O>('owner_ben', 'webQueryFleetOverview');
      expect(ben.dat!.activeAlarms).toBe(0);
      // north_ops has no `overview` permission.
      expect((await call('north_ops', 'webQueryFleetOverview')).err).toBe(11);
    });
  });
});
