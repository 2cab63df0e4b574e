import { describe, expect, it } from 'vitest';
import { DEVCODE_2341, DEVICE_STATUS, energyCounters } from '@sunwatch/protocol';
import { localDay } from '../../shared/local-time.js';
import { deviceStatus, planWrite, type Candidate } from './ingest-planner.js';
import type { DeviceEntry, IngestResult } from './ingest.types.js';
import { syntheticValues } from './synthetic.js';

/** planWrite is pure: candidates + which of them were inserted → the write plan. No database. */

const NOW = Date.UTC(2026, 5, 15, 4, 0, 0);
const MIN = 60_000;
const dev = (id: number): DeviceEntry => ({ id, dataloggerId: 100 + id, def: DEVCODE_2341, expires: 0 });
const result = (): IngestResult => ({ ok: true, stored: 0, duplicates: 0, rejected: 0 });

function cand(
  d: DeviceEntry,
  ts: number,
  i: number,
  opts: { tz?: number; fault?: number; status?: number; r?: IngestResult } = {},
): Candidate {
  const values = syntheticValues(DEVCODE_2341, {
    phase: i,
    energy: { generated: 100 + i, used: 50 + i / 2 },
    overrides: opts.fault !== undefined ? { fault_code: opts.fault } : {},
  });
  return {
    result: opts.r ?? result(),
    dev: d,
    ts,
    values,
    status: opts.status,
    data: new Uint8Array([i]),
    tz: opts.tz ?? 0,
    n: Object.keys(values).length,
  };
}

describe('planWrite', () => {
  it('counts resends as duplicates and plans nothing for them', () => {
    const r = result();
    const cs = [cand(dev(1), NOW - 2 * MIN, 1, { r }), cand(dev(1), NOW - MIN, 2, { r })];
    const { plan, stats } = planWrite(cs, [false, false], [{ id: 101, seenAt: NOW }], [], NOW);
    expect(r).toMatchObject({ stored: 0, duplicates: 2 });
    expect(stats).toEqual({ stored: 0, duplicates: 2, points: 0 });
    expect(plan).toEqual({ days: [], latest: [], devices: [], dataloggers: [{ id: 101, seenAt: NOW }], badFrames: [] });
  });

  it('rolls samples up per device and local day (min/max of counters, first/last, peak)', () => {
    const d = dev(1);
    const tz = 8 * 3600; // 16:00 UTC is midnight at +8
    const t0 = Date.UTC(2026, 5, 14, 15, 50);
    const cs = [cand(d, t0, 1, { tz }), cand(d, t0 + 5 * MIN, 2, { tz }), cand(d, t0 + 15 * MIN, 3, { tz })];
    const { plan, stats } = planWrite(cs, [true, true, true], [], [], NOW);
    expect(stats.stored).toBe(3);
    expect(stats.points).toBe(cs.reduce((a, c) => a + c.n, 0));
    expect(plan.days.map((x) => [x.deviceId, x.day, x.samples, x.firstTs, x.lastTs])).toEqual([
      [1, localDay(t0, tz), 2, t0, t0 + 5 * MIN],
      [1, localDay(t0 + 15 * MIN, tz), 1, t0 + 15 * MIN, t0 + 15 * MIN],
    ]);
    const gen = cs.map((c) => energyCounters(DEVCODE_2341, c).generated!);
    expect(plan.days[0]!.min.gen).toBe(Math.min(gen[0]!, gen[1]!));
    expect(plan.days[0]!.max.gen).toBe(Math.max(gen[0]!, gen[1]!));
    expect(plan.days[0]!.peak).not.toBeNull();
  });

  it('orders each device run by time; the newest past sample is the latest and sets the status', () => {
    const a = dev(1);
    const b = dev(2);
    const cs = [
      cand(a, NOW - MIN, 3),
      cand(a, NOW - 3 * MIN, 1),
      cand(b, NOW - 2 * MIN, 1, { status: DEVICE_STATUS.FAULT }),
      cand(a, NOW - 2 * MIN, 2),
    ];
    const { plan } = planWrite(cs, [true, true, true, true], [], [], NOW);
    expect(plan.latest.map((l) => [l.deviceId, l.ts])).toEqual([
      [1, NOW - MIN],
      [2, NOW - 2 * MIN],
    ]);
    const pa = plan.devices.find((x) => x.id === 1)!;
    expect(pa.run.map((s) => s.ts)).toEqual([NOW - 3 * MIN, NOW - 2 * MIN, NOW - MIN]);
    expect(pa).toMatchObject({ dataloggerId: 101, ts: NOW - MIN, status: DEVICE_STATUS.NORMAL, anyAlarm: false });
    expect(plan.devices.find((x) => x.id === 2)).toMatchObject({ status: DEVICE_STATUS.FAULT });
  });

  it('rolls up a sample ahead of the clock but never makes it the latest, the status or an alarm', () => {
    const d = dev(1);
    const cs = [cand(d, NOW - MIN, 1), cand(d, NOW + 5 * MIN, 2, { fault: 2 })];
    const { plan, stats } = planWrite(cs, [true, true], [], [], NOW);
    expect(stats.stored).toBe(2);
    expect(plan.days.reduce((a, x) => a + x.samples, 0)).toBe(2);
    expect(plan.latest).toEqual([{ deviceId: 1, ts: NOW - MIN, data: cs[0]!.data }]);
    expect(plan.devices[0]).toMatchObject({ ts: NOW - MIN, anyAlarm: false });
    expect(plan.devices[0]!.run).toHaveLength(1);
  });

  it('carries the active alarms of every sample of the run', () => {
    const d = dev(1);
    const cs = [
      cand(d, NOW - 3 * MIN, 1),
      cand(d, NOW - 2 * MIN, 2, { fault: 2 }),
      cand(d, NOW - MIN, 3, { fault: 2 }),
    ];
    const { plan } = planWrite(cs, [true, true, true], [], [{ dataloggerId: 101, n: 2 }], NOW);
    const p = plan.devices[0]!;
    expect(p.anyAlarm).toBe(true);
    expect(p.run[0]!.alarms).toEqual([]);
    expect(p.run[1]!.alarms.length).toBeGreaterThan(0);
    expect(p.run[2]!.alarms).toBe(p.run[1]!.alarms); // equal sets share one array
    expect(p.status).toBe(deviceStatus(undefined, p.run[2]!.alarms));
    expect(plan.badFrames).toEqual([{ dataloggerId: 101, n: 2 }]);
  });

  it('plans a firmware write only when the newest inserted sample reports a version that differs from the known one', () => {
    const withFw = (c: Candidate, fw: string | undefined): Candidate => ({ ...c, fw });
    const d = { ...dev(1), firmware: 'V1' };
    // Unchanged (also in earlier samples), absent or '': nothing planned.
    const same = planWrite(
      [withFw(cand(d, NOW - 2 * MIN, 1), 'V1'), withFw(cand(d, NOW - MIN, 2), 'V1')],
      [true, true],
      [],
      [],
      NOW,
    );
    expect(same.firmware).toEqual([]);
    expect(same.plan.devices[0]!.firmware).toBeUndefined();
    expect(planWrite([withFw(cand(d, NOW - MIN, 3), '')], [true], [], [], NOW).firmware).toEqual([]);
    expect(planWrite([cand(d, NOW - MIN, 4)], [true], [], [], NOW).firmware).toEqual([]);
    // Changed: the newest sample's version, once per device.
    const changed = planWrite(
      [withFw(cand(d, NOW - MIN, 5), 'V3'), withFw(cand(d, NOW - 2 * MIN, 6), 'V2')],
      [true, true],
      [],
      [],
      NOW,
    );
    expect(changed.plan.devices[0]!.firmware).toBe('V3');
    expect(changed.firmware).toEqual([{ dev: d, fw: 'V3' }]);
    // A resent sample (not inserted) or one ahead of now plans nothing.
    expect(planWrite([withFw(cand(d, NOW - MIN, 7), 'V4')], [false], [], [], NOW).firmware).toEqual([]);
    expect(planWrite([withFw(cand(d, NOW + MIN, 8), 'V4')], [true], [], [], NOW).firmware).toEqual([]);
    // A device first heard of (known version '') takes its first frame's.
    expect(
      planWrite([withFw(cand({ ...dev(2), firmware: '' }, NOW - MIN, 9), 'V1')], [true], [], [], NOW).firmware,
    ).toHaveLength(1);
  });
});

describe('deviceStatus', () => {
  it('prefers the reported status, else the worst alarm level', () => {
    expect(deviceStatus(3, [{ level: 2 }])).toBe(3);
    expect(deviceStatus(undefined, [])).toBe(DEVICE_STATUS.NORMAL);
    expect(deviceStatus(undefined, [{ level: 0 }])).toBe(DEVICE_STATUS.WARNING);
    expect(deviceStatus(undefined, [{ level: 0 }, { level: 1 }])).toBe(DEVICE_STATUS.ERROR);
    expect(deviceStatus(undefined, [{ level: 2 }])).toBe(DEVICE_STATUS.FAULT);
  });
});
