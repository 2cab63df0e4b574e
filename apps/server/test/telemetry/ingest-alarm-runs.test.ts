import { DEVICE_STATUS } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { createDatalogger, frame2341 } from '../factories/telemetry-ingest.js';

const DAY0 = Date.UTC(2025, 5, 1, 8, 0, 0);
const STEP = 5 * 60_000;

describe.each(engines)('alarms over every sample of a write batch ($name)', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine);
  });
  afterAll(() => s?.stop());

  /** Submits frames so they land in ONE write batch (queued together, as a buffered resend). */
  const batch = async (frames: ReturnType<typeof frame2341>[]) => {
    const ingest = s.ctx.services.telemetry.ingest;
    await ingest.drain();
    const results = await Promise.all(frames.map((f) => ingest.submitData(f.pn, f)));
    for (const r of results) expect(r.ok, r.detail).toBe(true);
    expect(s.ctx.services.telemetry.metrics.lastBatchFrames).toBe(frames.length);
  };
  const alarmsOf = async (pn: string) => {
    const dev = await s.ctx.db.selectFrom('devices').selectAll().where('pn', '=', pn).executeTakeFirstOrThrow();
    const rows = await s.ctx.db
      .selectFrom('alarms')
      .select(['level', 'code', 'started_at', 'ended_at'])
      .where('device_id', '=', dev.id)
      .orderBy('started_at')
      .orderBy('code')
      .execute();
    return { dev, alarms: rows.map((r) => [r.code, Number(r.started_at), r.ended_at === null ? null : Number(r.ended_at)]) };
  };

  it('a fault episode in the middle of one batch opens and closes at its own samples', async () => {
    const d = await createDatalogger(s.ctx);
    const f = (i: number, fault?: number) => frame2341(d.pn, DAY0 + i * STEP, i, fault ? { fault } : {});
    // Out of order inside the batch on purpose: evaluated in timestamp order.
    await batch([f(5), f(0), f(1), f(2, 2), f(3, 2), f(4), f(6, 5), f(7, 5), f(8)]);
    const { dev, alarms } = await alarmsOf(d.pn);
    expect(alarms).toEqual([
      [2, DAY0 + 2 * STEP, DAY0 + 4 * STEP],
      [5, DAY0 + 6 * STEP, DAY0 + 8 * STEP],
    ]);
    expect(dev.status).toBe(DEVICE_STATUS.NORMAL);
    // A fault still active at the newest sample stays open; the status follows the newest sample.
    await batch([f(9), f(10, 2), f(11, 2)]);
    const after = await alarmsOf(d.pn);
    expect(after.alarms.at(-1)).toEqual([2, DAY0 + 10 * STEP, null]);
    expect(after.dev.status).toBe(DEVICE_STATUS.FAULT);
  });

  it('old samples (backfill) add closed episodes only, never touching the current state', async () => {
    const d = await createDatalogger(s.ctx);
    const f = (i: number, fault?: number) => frame2341(d.pn, DAY0 + i * STEP, i, fault ? { fault } : {});
    // Current state: fault 2 open since sample 100.
    await batch([f(100, 2)]);
    // Backfill of earlier data: an episode of code 5 inside it (closed, historical); code 2 active at
    // the run's first sample (start unknown) and code 7 active at its last (end unknown) are ignored.
    await batch([f(10, 2), f(11), f(12, 5), f(13, 5), f(14), f(15, 7)]);
    const { dev, alarms } = await alarmsOf(d.pn);
    expect(alarms).toEqual([
      [5, DAY0 + 12 * STEP, DAY0 + 14 * STEP],
      [2, DAY0 + 100 * STEP, null],
    ]);
    expect(dev.status).toBe(DEVICE_STATUS.FAULT);
    expect(Number(dev.last_sample_at)).toBe(DAY0 + 100 * STEP);
    // Newer data then closes the current alarm as before; a batch mixing old and new samples
    // evaluates each part by its rule.
    await batch([f(19), f(20, 3), f(21), f(101), f(102, 4)]);
    const after = await alarmsOf(d.pn);
    expect(after.alarms).toEqual([
      [5, DAY0 + 12 * STEP, DAY0 + 14 * STEP],
      [3, DAY0 + 20 * STEP, DAY0 + 21 * STEP],
      [2, DAY0 + 100 * STEP, DAY0 + 101 * STEP],
      [4, DAY0 + 102 * STEP, null],
    ]);
    // A resend of the same samples changes nothing.
    await batch([f(12, 5), f(13, 5), f(14), f(101)]);
    expect((await alarmsOf(d.pn)).alarms).toEqual(after.alarms);
  });
});
