import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { balance, stepBattery, type BatteryParams } from './battery.js';
import { loadPower, loadShape } from './load.js';
import { pvPower, siteConditions } from './pv.js';
import { clearSkyGhi, planeOfArray, solarNoon, solarPosition } from './sun.js';
import { climateClearness, cloudFactor, skyIndex } from './weather.js';
import { CITIES } from '../cities.js';

const DAY = 86_400_000;

describe('sun', () => {
  it('matches known positions (NOAA calculator, ±0.5°)', () => {
    // Greenwich, 2024-03-20 12:10 UTC (near the equinox, solar noon): elevation ≈ 90 − 51.48 + δ(≈0).
    const p = solarPosition(51.4769, 0, Date.UTC(2024, 2, 20, 12, 7));
    expect(p.elevation).toBeGreaterThan(38.2);
    expect(p.elevation).toBeLessThan(38.9);
    expect(Math.abs(p.declination)).toBeLessThan(0.5);
    // Summer solstice declination ≈ +23.44°, winter ≈ −23.44°.
    expect(solarPosition(0, 0, Date.UTC(2024, 5, 20, 12)).declination).toBeCloseTo(23.44, 0);
    expect(solarPosition(0, 0, Date.UTC(2024, 11, 21, 12)).declination).toBeCloseTo(-23.44, 0);
    // Equation of time: about +16.4 min early November, −14.2 min mid-February.
    expect(solarPosition(0, 0, Date.UTC(2024, 10, 3)).equationOfTime).toBeCloseTo(16.4, 0);
    expect(solarPosition(0, 0, Date.UTC(2024, 1, 11)).equationOfTime).toBeCloseTo(-14.2, 0);
  });

  it('is below the horizon at local midnight and highest at solar noon', () => {
    for (const c of CITIES) {
      const day = Date.UTC(2025, 8, 10);
      const noon = solarNoon(c.lon, day);
      const midnight = noon - DAY / 2;
      expect(solarPosition(c.lat, c.lon, midnight).elevation).toBeLessThan(0);
      const atNoon = solarPosition(c.lat, c.lon, noon).elevation;
      for (const d of [-60, -20, 20, 60])
        expect(solarPosition(c.lat, c.lon, noon + d * 60_000).elevation).toBeLessThan(atNoon);
    }
  });
});

describe('PV', () => {
  it('is zero whenever the sun is down (any site, any time)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CITIES),
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
        (c, t) => {
          const cond = siteConditions({ ...c, seed: 7 }, t);
          const w = pvPower({ kWp: 10 }, cond.poa, cond.ambientC);
          if (cond.elevation <= 0) expect(w).toBe(0);
          expect(w).toBeGreaterThanOrEqual(0);
          expect(w).toBeLessThanOrEqual(10_000 * 1.35 * 1.1);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('peaks near solar noon in local time under a clear sky', () => {
    for (const c of CITIES) {
      for (const month of [0, 3, 6, 9]) {
        const day = Date.UTC(2025, month, 15) - c.tzOffset * 1000; // local midnight
        let best = 0;
        let bestAt = 0;
        for (let t = day; t < day + DAY; t += 60_000) {
          const el = solarPosition(c.lat, c.lon, t).elevation;
          const w = pvPower({ kWp: 5 }, planeOfArray(clearSkyGhi(el), el), 25);
          if (w > best) {
            best = w;
            bestAt = t;
          }
        }
        const noon = solarNoon(c.lon, bestAt);
        expect(Math.abs(bestAt - noon)).toBeLessThanOrEqual(5 * 60_000);
        const localHour = ((bestAt - day) / 3_600_000) % 24;
        expect(localHour).toBeGreaterThan(10.5);
        expect(localHour).toBeLessThan(14);
      }
    }
  });

  it('loses power when hot (temperature coefficient) and clips at the AC limit', () => {
    expect(pvPower({ kWp: 5 }, 1000, 40)).toBeLessThan(pvPower({ kWp: 5 }, 1000, 10));
    expect(pvPower({ kWp: 5, acLimitW: 3000 }, 1000, 10)).toBe(3000);
  });
});

describe('weather', () => {
  it('is deterministic per site and changes smoothly within a day', () => {
    const t = Date.UTC(2025, 4, 2, 10);
    expect(cloudFactor(42, t, 3600)).toBe(cloudFactor(42, t, 3600));
    for (let k = 0; k < 200; k++) {
      const a = cloudFactor(42, t + k * 60_000, 3600);
      const b = cloudFactor(42, t + (k + 1) * 60_000, 3600);
      expect(Math.abs(a - b)).toBeLessThan(0.1);
      expect(a).toBeGreaterThanOrEqual(0.05);
      expect(a).toBeLessThanOrEqual(1);
    }
  });

  it('visits every sky state and mostly keeps yesterday’s weather (Markov)', () => {
    const counts = [0, 0, 0];
    let same = 0;
    for (let d = 20000; d < 21000; d++) {
      counts[skyIndex(99, d)]! += 1;
      if (skyIndex(99, d) === skyIndex(99, d - 1)) same += 1;
    }
    for (const n of counts) expect(n).toBeGreaterThan(100);
    expect(same).toBeGreaterThan(450);
    // Subtropical dry belts are clearer.
    let clearDesert = 0;
    let clearTemperate = 0;
    for (let d = 20000; d < 21000; d++) {
      if (skyIndex(99, d, climateClearness(25)) === 0) clearDesert += 1;
      if (skyIndex(99, d, climateClearness(52)) === 0) clearTemperate += 1;
    }
    expect(clearDesert).toBeGreaterThan(clearTemperate + 150);
  });
});

describe('household load', () => {
  it('has morning and evening peaks above the night base; weekends differ', () => {
    for (const weekend of [false, true]) {
      expect(loadShape(19.6, weekend)).toBeGreaterThan(2 * loadShape(3, weekend));
      expect(loadShape(weekend ? 9.5 : 7.2, weekend)).toBeGreaterThan(loadShape(3, weekend));
    }
    expect(loadShape(7.2, false)).not.toBeCloseTo(loadShape(7.2, true), 1);
  });

  it('averages roughly its daily energy', () => {
    const profile = { dailyKWh: 12 };
    let wh = 0;
    const start = Date.UTC(2025, 0, 6);
    const days = 28;
    for (let t = start; t < start + days * DAY; t += 300_000) wh += (loadPower(profile, 5, t, 3600) * 300) / 3600;
    const perDay = wh / 1000 / days;
    expect(perDay).toBeGreaterThan(12 * 0.8);
    expect(perDay).toBeLessThan(12 * 1.35);
  });
});

const batteryArb = fc.record({
  capacityKWh: fc.double({ min: 1, max: 40, noNaN: true }),
  maxChargeW: fc.double({ min: 100, max: 10_000, noNaN: true }),
  maxDischargeW: fc.double({ min: 100, max: 10_000, noNaN: true }),
  minSoc: fc.integer({ min: 0, max: 30 }),
  maxSoc: fc.integer({ min: 80, max: 100 }),
  efficiency: fc.double({ min: 0.8, max: 1, noNaN: true }),
});

describe('battery', () => {
  it('keeps SOC within its limits and power within its ratings', () => {
    fc.assert(
      fc.property(
        batteryArb,
        fc.array(
          fc.record({
            w: fc.double({ min: -20_000, max: 20_000, noNaN: true }),
            dt: fc.integer({ min: 1, max: 3600 }),
          }),
          {
            minLength: 1,
            maxLength: 60,
          },
        ),
        (p: BatteryParams, steps) => {
          let soc = (p.minSoc + p.maxSoc) / 2;
          for (const s of steps) {
            const r = stepBattery(soc, p, s.w, s.dt);
            expect(r.soc).toBeGreaterThanOrEqual(p.minSoc - 1e-9);
            expect(r.soc).toBeLessThanOrEqual(p.maxSoc + 1e-9);
            expect(r.powerW).toBeLessThanOrEqual(p.maxDischargeW + 1e-6);
            expect(-r.powerW).toBeLessThanOrEqual(p.maxChargeW + 1e-6);
            expect(Math.sign(r.powerW) * Math.sign(s.w)).toBeGreaterThanOrEqual(0);
            // Stored energy changes by charge·√η − discharge/√η.
            const eta = Math.sqrt(p.efficiency);
            const storedKWh = ((r.soc - soc) / 100) * p.capacityKWh;
            expect(storedKWh).toBeCloseTo(r.chargedKWh * eta - r.dischargedKWh / eta, 6);
            soc = r.soc;
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('balances: pv + import + discharge = load + export + charge', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 15_000, noNaN: true }),
        fc.double({ min: 0, max: 12_000, noNaN: true }),
        fc.option(batteryArb, { nil: undefined }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.boolean(),
        (pv, load, battery, soc0, exportAllowed) => {
          const soc = battery ? Math.min(battery.maxSoc, Math.max(battery.minSoc, soc0)) : 0;
          const r = balance({ pvW: pv, loadW: load, dtS: 300, soc, battery, exportAllowed });
          const inW = r.pvW + Math.max(0, r.gridW) + Math.max(0, r.batteryW);
          const outW = r.loadW + Math.max(0, -r.gridW) + Math.max(0, -r.batteryW);
          expect(inW).toBeCloseTo(outW, 6);
          expect(r.pvW).toBeLessThanOrEqual(pv + 1e-9);
          expect(r.pvW).toBeGreaterThanOrEqual(0);
          if (!exportAllowed) expect(r.gridW).toBeGreaterThanOrEqual(0);
          // PV serves the load first: no import while PV alone covers it.
          if (pv >= load) expect(r.gridW).toBeLessThanOrEqual(1e-9);
          // Never charge from the grid, never discharge into it.
          if (r.batteryW < 0) expect(r.gridW).toBeLessThanOrEqual(1e-9);
          if (r.batteryW > 0) expect(r.gridW).toBeGreaterThanOrEqual(-1e-9);
        },
      ),
      { numRuns: 500 },
    );
  });
});
