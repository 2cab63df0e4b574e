import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../harness.js';
import { KB, startFleetServer, until, type FleetServer } from './fleet-helpers.js';

/**
 * Two server instances share the upgrade work through the lease on `upgrade_tasks` (issue 13;
 * docs/firmware/engine.md "Tasks, leases, resume"): instance "a" drives a transfer and crashes
 * halfway (`abandon()`: no park, no lease release, no write). Nothing moves until its lease
 * expires; then instance "b" claims the task in its sweep, resumes from the datalogger's `have`
 * and completes it, exactly once. A late write of "a" is refused. Real MQTT, a live simulated
 * datalogger, SQLite and PostgreSQL.
 */

describe.each(engines)('lease takeover between two instances ($name)', (engine) => {
  let f: FleetServer;

  beforeAll(async () => {
    f = await startFleetServer(engine, { count: 1, prefix: 'SWLEASE' });
    // The app's own engine stands aside: the two instances below are the only drivers.
    await f.s.ctx.services.upgradeEngine.stop();
  }, 90_000);

  afterAll(async () => {
    await f?.stop();
  }, 30_000);

  it('b takes over the expired lease of a, resumes from have and completes once; a late write of a is refused', async () => {
    const pn = f.pns[0]!;
    const size = 200 * KB; // 100 chunks of 2 KiB
    const fw = await f.addFirmware('SWDL-30.0.0', size);
    const leaseMs = 3000;
    const cmds = f.s.ctx.services.commands;
    // b's chunk offsets, as sent.
    const bOffsets: number[] = [];
    const bCommands = Object.assign(Object.create(cmds) as typeof cmds, {
      send: (
        p: string,
        cmd: Parameters<typeof cmds.send>[1],
        params: Record<string, unknown>,
        o?: Parameters<typeof cmds.send>[3],
      ) => {
        if (cmd === 'upgrade_chunk') bOffsets.push(Number(params.offset));
        return cmds.send(p, cmd, params, o);
      },
    });
    const a = f.engine({ instance: 'a', options: { leaseMs } });
    const b = f.engine({ instance: 'b', commands: bCommands, options: { leaseMs, sweepMs: 200 } });
    const row = (key: string) =>
      f.s.ctx.db.selectFrom('upgrade_tasks').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
    // sent_bytes as seen from outside, all along: it never goes back (never restarts from 0).
    const seen: number[] = [];
    let watching = true;
    let key = '';
    const watcher = (async () => {
      while (watching) {
        if (key) seen.push(Number((await row(key)).sent_bytes));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    try {
      const r = await a.start({
        target: { pn, target: 0 },
        firmwareId: fw.id,
        by: { accountId: f.vendorId, usr: 'sunmaker' },
      });
      expect(r.ret).toBe(0);
      key = r.key!;
      await until('a sent 20 chunks', async () => Number((await row(key)).sent_bytes) >= 40 * KB);
      a.abandon();
      await a.idle();
      const crashed = await row(key);
      expect(crashed).toMatchObject({ lease_owner: 'a', phase: 'transfer', status: 0 });
      const sentByA = Number(crashed.sent_bytes);
      expect(sentByA).toBeGreaterThanOrEqual(40 * KB);
      expect(sentByA).toBeLessThan(size);
      const leaseUntil = Number(crashed.lease_until);
      expect(leaseUntil).toBeGreaterThan(f.s.ctx.now());

      b.startSweep();
      // Until a's lease runs out, b leaves the task alone and nothing moves.
      while (f.s.ctx.now() < leaseUntil - 300) {
        const now = await row(key);
        expect(now).toMatchObject({ lease_owner: 'a', sent_bytes: sentByA });
        expect(Number(now.lease_until)).toBe(leaseUntil);
        await new Promise((res) => setTimeout(res, 100));
      }
      expect(bOffsets).toEqual([]);
      await until('b claimed the task', async () => (await row(key)).lease_owner === 'b', 10_000);
      expect(f.s.ctx.now()).toBeGreaterThanOrEqual(leaseUntil);

      // a wakes up late and tries to record progress: refused (the lease is b's), nothing changes.
      const before = Number((await row(key)).sent_bytes);
      expect(await a.recordProgress(key, { sent_bytes: 0, progress: 0, phase: 'transfer' })).toBe(false);
      const after = await row(key);
      expect(after.lease_owner).toBe('b');
      expect(Number(after.sent_bytes)).toBeGreaterThanOrEqual(before);

      await until(
        'the upgrade completed',
        async () => {
          const t = await row(key);
          return t.ended_at !== null ? t : undefined;
        },
        40_000,
      );
      const done = await row(key);
      expect(done).toMatchObject({ status: 3, progress: 1000, lease_owner: 'b', sent_bytes: size });
      expect(Number(done.attempts)).toBeGreaterThanOrEqual(2); // begun by a, then by b
      // b resumed where the datalogger was: its first chunk was past what a had recorded.
      expect(bOffsets.length).toBeGreaterThan(0);
      expect(Math.min(...bOffsets)).toBeGreaterThanOrEqual(sentByA);
      expect(bOffsets.length).toBeLessThanOrEqual((size - sentByA) / (2 * KB));
      // Exactly one outcome in the history, a success.
      const ops = await f.s.ctx.db
        .selectFrom('operation_log')
        .select(['result'])
        .where('target', '=', key)
        .where('kind', '=', 'upgrade')
        .execute();
      expect(ops).toEqual([{ result: 0 }]);
      // And a's late write after the end changes nothing either.
      expect(await a.recordProgress(key, { progress: 0 })).toBe(false);
      expect((await row(key)).progress).toBe(1000);
    } finally {
      watching = false;
      await watcher;
      await b.stop();
      await a.stop();
    }
    expect(seen.length).toBeGreaterThan(10);
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
  }, 90_000);
});
