import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { JobRunner } from '../../src/jobs/job-runner.js';
import { engines, startTestServer, type TestServer } from '../harness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Issue 16, several instances: the periodic jobs run under a lease in the `jobs` table. Two runners
 * (two instances) on one database: a run longer than its lease keeps it (renewed), so the other
 * instance never runs the same job at the same time; once the holder is gone, the other takes over.
 */
describe.each(engines)('job leases across instances ($name)', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(engine, {
      seed: false,
      config: { telemetry: { ...loadConfig({}).telemetry, mqttEnabled: false, jobsEnabled: false } },
    });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('a run that outlasts its lease keeps it; the other instance takes over only after the holder stopped', async () => {
    const now = () => Date.now();
    const a = new JobRunner(s.ctx.db, now, s.ctx.log);
    const b = new JobRunner(s.ctx.db, now, s.ctx.log);
    const leaseMs = 500;
    let running = 0;
    let overlap = false;
    const slow = async () => {
      running += 1;
      if (running > 1) overlap = true;
      await sleep(3 * leaseMs);
      running -= 1;
    };
    const first = a.runOnce('lease-probe', leaseMs, slow);
    await sleep(20);
    // Past the first lease's end, while A still runs: B must not get it.
    const tries: boolean[] = [];
    for (let k = 0; k < 5; k++) {
      await sleep(leaseMs / 2);
      tries.push(await b.runOnce('lease-probe', leaseMs, slow));
    }
    expect(await first).toBe(true);
    expect(tries).toEqual([false, false, false, false, false]);
    expect(overlap).toBe(false);
    // A stopped (its lease is no longer renewed): B runs the job once the lease has run out.
    await sleep(leaseMs + 50);
    expect(await b.runOnce('lease-probe', leaseMs, () => Promise.resolve())).toBe(true);
    expect(await a.runOnce('lease-probe', leaseMs, () => Promise.resolve())).toBe(false);
  });
});
