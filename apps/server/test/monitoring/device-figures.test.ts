import {
  DEVCODE_2341,
  DEVCODE_5121,
  DEVCODE_5123,
  DEVCODE_5124,
  type DeviceDefinition,
  type DeviceFigureWire,
  type DeviceInfoRow,
  type DeviceStatisticDat,
  type DeviceEnergyChartDat,
  type FleetOverviewDat,
  type IngestFrame,
  type WebDeviceRow,
  type WebPlantRow,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';
import { createDatalogger, type TestDatalogger } from '../factories/telemetry-ingest.js';

/**
 * Issue 8 "figures that contradict each other": the key figures per device type (battery SOC and
 * charge energy, meter import/export, …) in list rows and statistics, the plant's consumption and
 * grid exchange, the device's plant name, the day power curve and the "since on platform" energy.
 */

const MIN = 60_000;

function entry(def: DeviceDefinition, sn: string, values: Record<string, number>) {
  return { devcode: def.devcode, devaddr: def.devcode % 10, sn, values };
}

const figures = (f: DeviceFigureWire[]) =>
  Object.fromEntries(f.map((x) => [x.panel ? `${x.key}${x.panel}` : x.key, x.val]));

describe.each(engines)('device and plant figures ($name)', (engine) => {
  let s: TestServer;
  let session: { token: string; secret: string };
  let grid: TestDatalogger;
  let hybrid: TestDatalogger;

  const call = async <T>(action: string, params: Record<string, unknown>): Promise<T> => {
    const r = await s.call<T>(session, action, params as never);
    expect(r.err, `${action}: ${JSON.stringify(r)}`).toBe(0);
    return r.dat!;
  };
  const row = async (sn: string) =>
    (await call<{ device: WebDeviceRow[] }>('webQueryDeviceEs', { page: 0, pagesize: 10, sn })).device[0]!;
  const tuple = (r: WebDeviceRow) => ({ pn: r.pn, devcode: r.devcode, devaddr: r.devaddr, sn: r.sn });

  beforeAll(async () => {
    s = await startTestServer(engine, { seed: true, now: FIXED_NOW });
    const r = await s.login('operator', 'Operator_2026');
    expect(r.err).toBe(0);
    session = r.dat!;
    grid = await createDatalogger(s.ctx);
    hybrid = await createDatalogger(s.ctx);
    const now = s.clock.now();
    const submit = async (f: IngestFrame) => {
      const res = await s.ctx.services.telemetry.ingest.submitData(f.pn, f);
      expect(res.ok, res.detail).toBe(true);
    };
    for (let i = 0; i < 3; i++) {
      const ts = now - 30 * MIN + i * 10 * MIN;
      // A grid-tie inverter and a meter importing 2.1 kW at the end (the "meter card 0 kWh").
      await submit({
        pn: grid.pn,
        ts,
        devices: [
          entry(DEVCODE_5121, 'FIG-INV', {
            pv_output_power: 1500,
            gd_active_power: 1450,
            sy_energy_total: 1000 + i * 0.5,
          }),
          entry(DEVCODE_5124, 'FIG-MTR', {
            gd_l1_voltage: 230,
            gd_active_power: i === 2 ? 2100 : -300,
            gd_import_energy_total: 50 + i,
            gd_export_energy_total: 20 + 0.2 * i,
          }),
        ],
      });
      // A hybrid inverter supplying 851 W of load, and its battery charging at 1.25 kW with 64 % SOC.
      await submit({
        pn: hybrid.pn,
        ts,
        devices: [
          entry(DEVCODE_2341, 'FIG-HYB', {
            pv_output_power: 0,
            output_power: 851,
            energy_pv_total: 20000,
            energy_load_total: 9000 + i * 0.3,
          }),
          entry(DEVCODE_5123, 'FIG-BMS', {
            bt_battery_capacity: 64,
            bt_battery_power: -1250,
            bt_energy_charged_total: 5900 + i * 0.2,
            bt_energy_discharged_total: 5400,
          }),
        ],
      });
    }
    await s.ctx.services.telemetry.ingest.drain();
  });
  afterAll(() => s?.stop());

  it('a battery row shows its SOC, charge power and charged energy, not a generation of 0', async () => {
    const r = await row('FIG-BMS');
    expect(figures(r.figures)).toEqual({
      soc: '64.0000',
      chargePower: '1.2500',
      dischargePower: '0.0000',
      chargedToday: '0.4000',
      chargedTotal: '5900.4000',
      dischargedToday: '0.0000',
      dischargedTotal: '5400.0000',
    });
    expect(r.figures.map((f) => f.unit)).toEqual(['%', 'kW', 'kW', 'kWh', 'kWh', 'kWh', 'kWh']);
  });

  it('a meter row shows import / export power and energy', async () => {
    expect(figures((await row('FIG-MTR')).figures)).toEqual({
      importPower: '2.1000',
      exportPower: '0.0000',
      importToday: '2.0000',
      importTotal: '52.0000',
      exportToday: '0.4000',
      exportTotal: '20.4000',
    });
  });

  it('an inverter row shows power, today and total, equal to its legacy fields', async () => {
    const r = await row('FIG-INV');
    expect(figures(r.figures)).toEqual({ power: '1.5000', energyToday: '1.0000', energyTotal: '1001.0000' });
    expect([r.outpower, r.energyToday, r.energyTotal]).toEqual(['1.5000', '1.0000', '1001.0000']);
  });

  it('the statistics reply carries the same figures as the list row, and the energy since on the platform', async () => {
    for (const sn of ['FIG-INV', 'FIG-MTR', 'FIG-HYB', 'FIG-BMS']) {
      const r = await row(sn);
      const st = await call<DeviceStatisticDat>('webQueryDeviceStatistic', tuple(r));
      expect(st.figures, sn).toEqual(r.figures);
    }
    const hyb = await call<DeviceStatisticDat>('webQueryDeviceStatistic', tuple(await row('FIG-HYB')));
    // the lifetime counter includes energy from before the platform saw the device
    expect(hyb.energy.used.total).toBe('9000.6000');
    expect(hyb.sincePlatform.used).toBe('0.6000');
    expect(hyb.sincePlatform.generated).toBe('0.0000');
    expect(hyb.firstDay).toBe(new Date(FIXED_NOW).toISOString().slice(0, 10));
  });

  it("device info names the device's plant", async () => {
    const r = await row('FIG-BMS');
    const info = await call<{ device: DeviceInfoRow[] }>('queryDeviceInfo', tuple(r));
    expect(info.device[0]!.pname).toBe(`Plant ${hybrid.pn}`);
    expect(info.device[0]!.pname).toBe(r.pname);
  });

  it("plants show their consumption and grid exchange from the meter's balance or the hybrid's load", async () => {
    const plant = async (pn: string) =>
      (await call<{ plant: WebPlantRow[] }>('webQueryPlants', { page: 0, pagesize: 10, plantName: `Plant ${pn}` }))
        .plant[0]!;
    const a = await plant(grid.pn);
    expect(a.pid).toBe(grid.projectId);
    // generation 1.5 kW + import 2.1 kW; today: generated 1.0 + bought 2.0 − sold 0.4
    expect({ out: a.outputPower, load: a.loadPower, grid: a.gridPower, used: a.energyUsed }).toEqual({
      out: '1.5000',
      load: '3.6000',
      grid: '2.1000',
      used: '2.6000',
    });
    const b = await plant(hybrid.pn);
    expect(b.pid).toBe(hybrid.projectId);
    // the hybrid's own load and consumption counter; it measures no grid power
    expect({ load: b.loadPower, grid: b.gridPower, used: b.energyUsed }).toEqual({
      load: '0.8510',
      grid: '--',
      used: '0.6000',
    });
    const fleet = await call<FleetOverviewDat>('webQueryFleetOverview', { timezone: 0 });
    expect(Number(fleet.consumptionPower)).toBeGreaterThanOrEqual(3.6 + 0.851 - 1e-9);
  });

  it('the day chart carries the power curve of every sample as measured (kW, Sunwatch sign)', async () => {
    const bms = await call<DeviceEnergyChartDat>('webQueryDeviceEnergyChart', {
      ...tuple(await row('FIG-BMS')),
      view: 'day',
    });
    expect(bms.power?.map((p) => p.node)).toEqual(['battery']);
    expect(bms.power![0]!.points.map((p) => p.val)).toEqual(['-1.2500', '-1.2500', '-1.2500']);
    expect(bms.power![0]!.points.map((p) => p.ts.slice(11))).toEqual(['03:30:00', '03:40:00', '03:50:00']);
    const mtr = await call<DeviceEnergyChartDat>('webQueryDeviceEnergyChart', {
      ...tuple(await row('FIG-MTR')),
      view: 'day',
    });
    expect(mtr.power![0]!.points.map((p) => p.val)).toEqual(['-0.3000', '-0.3000', '2.1000']);
    const month = await call<DeviceEnergyChartDat>('webQueryDeviceEnergyChart', {
      ...tuple(await row('FIG-MTR')),
      view: 'month',
    });
    expect(month.power).toBeUndefined();
  });
});
