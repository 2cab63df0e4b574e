import fc from 'fast-check';
import { DEVCODE_2341, encodeRegisters, energyCounters } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { localDay } from '../../src/shared/local-time.js';
import {
  dayEnergy,
  deviceLifetime,
  energyTotals,
  KIND_COLUMN,
  lifetimeTotals,
  type DeviceDayRow,
} from '../../src/modules/telemetry/rollups.js';
import { decodeSample } from '../../src/modules/telemetry/sample-codec.js';
import { syntheticValues } from '../../src/modules/telemetry/synthetic.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { createDatalogger } from '../factories/telemetry-ingest.js';

const T0 = Date.UTC(2025, 2, 29, 18, 0, 0);

/**
 * Property: whatever samples arrive — duplicated, shuffled, split into random batches, across
 * local-day boundaries, with a counter reset — the day rollups kept on ingest give the same day
 * energies as a from-scratch aggregate of the raw samples that ended up stored.
 */
describe.each(engines)('rollups = aggregate of raw samples ($name)', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine, {
      seed: true,
      config: { telemetry: { ...loadConfig({}).telemetry, mqttEnabled: false, jobsEnabled: false, batchMs: 2 } },
    });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('holds for random sample sets ingested in random batches', async () => {
    const sample = fc.record({
      minute: fc.integer({ min: 0, max: 3 * 24 * 60 }),
      gen: fc.integer({ min: 0, max: 50 }),
      used: fc.integer({ min: 0, max: 50 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(sample, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: -24, max: 28 }).map((h) => h * 1800), // UTC−12 … UTC+14 in half hours
        fc.option(fc.integer({ min: 0, max: 39 }), { nil: undefined }), // index after which the counter resets
        fc.array(fc.nat(), { minLength: 1, maxLength: 10 }), // duplicates / shuffle / batching seeds
        async (raw, tz, resetAt, seeds) => {
          const d = await createDatalogger(s.ctx, { tz });
          // One value per timestamp; counters grow with time (cumulative), and may reset once.
          const byMinute = new Map(raw.map((r) => [r.minute, r]));
          const times = [...byMinute.keys()].sort((x, y) => x - y);
          let gen = 1000;
          let used = 500;
          const frames = times.map((m, i) => {
            const r = byMinute.get(m)!;
            gen += r.gen;
            used += r.used;
            if (resetAt === i) gen = r.gen;
            const values = syntheticValues(DEVCODE_2341, {
              phase: i,
              energy: { generated: gen / 10, used: used / 10 },
            });
            return {
              pn: d.pn,
              ts: T0 + m * 60_000,
              devices: [
                { devcode: 2341, devaddr: 3, sn: `${d.pn}-X`, registers: encodeRegisters(DEVCODE_2341, values) },
              ],
            };
          });
          // Duplicates, a shuffle, random batches.
          const all = [...frames, ...frames.filter((_, i) => (seeds[i % seeds.length]! + i) % 3 === 0)];
          for (let i = all.length - 1; i > 0; i--) {
            const j = (seeds[i % seeds.length]! * 7919 + i * 104729) % (i + 1);
            [all[i], all[j]] = [all[j]!, all[i]!];
          }
          let k = 0;
          let b = 0;
          while (k < all.length) {
            const size = 1 + (seeds[b++ % seeds.length]! % 8);
            const batch = all.slice(k, k + size);
            k += size;
            const results = await Promise.all(
              batch.map((f) => s.ctx.services.telemetry.ingest.submitData(d.pn, JSON.stringify(f))),
            );
            for (const r of results) expect(r.ok).toBe(true);
          }

          const dev = await s.ctx.db
            .selectFrom('devices')
            .select('id')
            .where('pn', '=', d.pn)
            .executeTakeFirstOrThrow();
          const stored = await s.ctx.db
            .selectFrom('samples')
            .select(['ts', 'data'])
            .where('device_id', '=', dev.id)
            .execute();
          expect(stored.map((r) => r.ts).sort((x, y) => x - y)).toEqual(frames.map((f) => f.ts));

          // From scratch: decode every stored sample, group by local day, min/max per counter.
          const scratch = new Map<number, DeviceDayRow & { n: number }>();
          for (const r of stored) {
            const day = localDay(r.ts, tz);
            const c = energyCounters(DEVCODE_2341, { values: decodeSample(DEVCODE_2341, r.data) });
            let acc = scratch.get(day);
            if (!acc) {
              acc = {
                day,
                n: 0,
                gen_min: null,
                gen_max: null,
                chg_min: null,
                chg_max: null,
                dis_min: null,
                dis_max: null,
                sold_min: null,
                sold_max: null,
                bought_min: null,
                bought_max: null,
                used_min: null,
                used_max: null,
              };
              scratch.set(day, acc);
            }
            acc.n += 1;
            for (const [kind, v] of Object.entries(c)) {
              const col = KIND_COLUMN[kind as keyof typeof KIND_COLUMN];
              const lo = acc[`${col}_min`];
              const hi = acc[`${col}_max`];
              acc[`${col}_min`] = lo === null ? v : Math.min(lo, v);
              acc[`${col}_max`] = hi === null ? v : Math.max(hi, v);
            }
          }
          const rollups = await s.ctx.db
            .selectFrom('device_days')
            .selectAll()
            .where('device_id', '=', dev.id)
            .orderBy('day')
            .execute();
          expect(rollups.map((r) => [r.day, r.samples])).toEqual(
            [...scratch.values()].sort((x, y) => x.day - y.day).map((r) => [r.day, r.n]),
          );
          const fromRollups = dayEnergy(rollups);
          expect(fromRollups).toEqual(dayEnergy([...scratch.values()]));

          // The SQL helper agrees with the JS derivation, per day and in total.
          const lastDay = rollups[rollups.length - 1]!.day;
          const sqlDays = await energyTotals(s.ctx.db, {
            scope: { deviceIds: [dev.id] },
            fromDay: 0,
            toDay: lastDay,
            period: 'day',
          });
          expect(sqlDays.map((r) => [r.period, r.generated, r.used])).toEqual(
            fromRollups.map((r) => [r.day, r.generated, r.used]),
          );
          const total = await energyTotals(s.ctx.db, {
            scope: { projectIds: [d.projectId!] },
            fromDay: 0,
            toDay: 99991231,
            period: 'total',
          });
          expect(total[0]!.generated).toBeCloseTo(
            fromRollups.reduce((x, r) => x + r.generated, 0),
            6,
          );
          // Lifetime total (latest counter + reset carry): SQL = JS = first day's min + Σ day energies.
          const lifetime = deviceLifetime(rollups);
          expect(lifetime).toEqual(deviceLifetime([...scratch.values()]));
          const sqlLifetime = await lifetimeTotals(s.ctx.db, 'generated', { deviceIds: [dev.id] });
          expect(sqlLifetime.get(dev.id)).toBeCloseTo(lifetime.generated, 6);
          expect(lifetime.generated).toBeCloseTo(
            rollups[0]!.gen_min! + fromRollups.reduce((x, r) => x + r.generated, 0),
            6,
          );
          // Latest is the newest stored sample.
          const latest = await s.ctx.db
            .selectFrom('device_latest')
            .select('ts')
            .where('device_id', '=', dev.id)
            .executeTakeFirstOrThrow();
          expect(latest.ts).toBe(frames[frames.length - 1]!.ts);
        },
      ),
      { numRuns: engine.name === 'sqlite' ? 100 : 40 },
    );
  });
});
