import { DEVCODE_5125, ENV_MONITOR_FIELDS, decodeDevice, encodeRegisters } from '@sunwatch/protocol';
import { describe, expect, it } from 'vitest';
import { deviceValues } from '../devices.js';
import { initialState, stepPlant } from '../plant.js';
import type { DataloggerSpec } from '../types.js';
import { dailyIrradiation, envReading, moduleTemperature, windSpeed } from './env.js';
import { siteConditions } from './pv.js';

const HAMBURG = { lat: 53.55, lon: 9.88, tzOffset: 3600, seed: 1234 };
const MIDNIGHT = Date.UTC(2026, 5, 14, 23, 0); // local midnight of 2026-06-15 (UTC+1)
const H = 3_600_000;

describe('environment monitor model', () => {
  it('reads the irradiance and air temperature the PV model sees', () => {
    const noon = MIDNIGHT + 13 * H;
    const cond = siteConditions(HAMBURG, noon);
    const r = envReading(HAMBURG, noon);
    expect(r.irradiance).toBeCloseTo(cond.poa, 6);
    expect(r.ambientC).toBeCloseTo(cond.ambientC, 6);
    expect(r.irradiance).toBeGreaterThan(100);
    expect(envReading(HAMBURG, MIDNIGHT + 1 * H).irradiance).toBe(0);
    // In the sun the module is warmer than the air; wind cools it towards the air.
    expect(r.moduleC).toBeGreaterThan(r.ambientC);
    expect(moduleTemperature(cond, 10)).toBeLessThan(moduleTemperature(cond, 0));
  });

  it('integrates the day: 0 at midnight, never falling, matching a fine numeric integral, reset next day', () => {
    expect(dailyIrradiation(HAMBURG, MIDNIGHT)).toBe(0);
    let prev = 0;
    for (let m = 0; m <= 24 * 60; m += 7) {
      const v = dailyIrradiation(HAMBURG, MIDNIGHT + m * 60_000);
      expect(v).toBeGreaterThanOrEqual(prev - 1e-9);
      prev = v;
    }
    let fine = 0;
    for (let t = MIDNIGHT; t < MIDNIGHT + 24 * H; t += 60_000) fine += siteConditions(HAMBURG, t + 30_000).poa / 60 / 1000;
    const day = dailyIrradiation(HAMBURG, MIDNIGHT + 24 * H - 1);
    expect(day).toBeGreaterThan(1);
    expect(day).toBeLessThan(9);
    expect(Math.abs(day - fine) / fine).toBeLessThan(0.02);
    expect(dailyIrradiation(HAMBURG, MIDNIGHT + 24 * H + 1000)).toBeLessThan(0.01);
  });

  it('wind stays in a plausible range', () => {
    for (let t = MIDNIGHT; t < MIDNIGHT + 48 * H; t += 17 * 60_000) {
      const w = windSpeed(HAMBURG, t);
      expect(w).toBeGreaterThanOrEqual(0);
      expect(w).toBeLessThanOrEqual(25);
    }
  });

  it('devcode 5125 values fit its protocol definition and decode back', () => {
    const spec: DataloggerSpec = {
      pn: 'SWNORTH0000001',
      site: { city: 'Hamburg', country: 'Germany', lat: 53.55, lon: 9.88, tzOffset: 3600 },
      system: { pvKWp: 7, load: { dailyKWh: 10 }, exportAllowed: true },
      devices: [
        { devcode: 5121, devaddr: 1, sn: 'INV1', encoding: 'values' },
        { devcode: 5125, devaddr: 3, sn: 'ENV1', encoding: 'registers' },
      ],
      collectInterval: 60,
      heartbeatInterval: 60,
    } as DataloggerSpec;
    const state = initialState(spec);
    const ts = MIDNIGHT + 12 * H;
    const snap = stepPlant(spec, state, ts, 60);
    const values = deviceValues(spec, spec.devices[1]!, snap, state.devices.ENV1!);
    const numeric = { ...values, sy_sensor_status: 0 } as Record<string, number>;
    const decoded = decodeDevice(DEVCODE_5125, {
      devcode: 5125,
      devaddr: 3,
      sn: 'ENV1',
      registers: encodeRegisters(DEVCODE_5125, numeric),
    });
    expect(decoded.errors).toEqual([]);
    expect(decoded.values[ENV_MONITOR_FIELDS.irradiance]).toBeCloseTo(snap.cond.poa, -1);
    expect(decoded.values[ENV_MONITOR_FIELDS.ambientTemp]).toBeCloseTo(snap.cond.ambientC, 0);
    expect(decoded.labels[ENV_MONITOR_FIELDS.sensorStatus]).toBe('Normal');
    // It generates nothing: the plant's PV is shared by the inverter only.
    expect(snap.pvByDevice.ENV1 ?? 0).toBe(0);
  });
});
