import type { UpgradeTasksDat } from '@sunwatch/protocol';
import { upgradeFlags } from '@sunwatch/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../src/shared/blob-store.js';
import type { UpgradeEngineService } from '../../src/modules/upgrades/upgrade-engine.js';
import { engines } from '../harness.js';
import { KB, startFleetServer, until, type FleetServer } from './fleet-helpers.js';

/**
 * The upgrade engine at fleet scale and its answer to a start the datalogger does not take
 * (issue 13; docs/firmware/engine.md "Fleet scale" and "Failed to start"), over the app's real
 * MQTT broker against live simulated dataloggers, on SQLite and PostgreSQL.
 */

type Wire = Record<string, string | number>;

describe.each(engines)('upgrade engine: failed starts and the transfer cap ($name)', (engine) => {
  let f: FleetServer;
  const call = async <T = Record<string, unknown>>(action: string, params: Wire = {}) =>
    f.s.call<T>(f.maker, action, params);
  const taskRow = (key: string) =>
    f.s.ctx.db.selectFrom('upgrade_tasks').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
  const lastTask = (pn: string) =>
    f.s.ctx.db
      .selectFrom('upgrade_tasks')
      .selectAll()
      .where('pn', '=', pn)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
  const ended = (key: string) =>
    until(`task ${key} ended`, async () => {
      const t = await taskRow(key);
      return t.ended_at !== null ? t : undefined;
    });

  beforeAll(async () => {
    // A single start waits at most 1 s for the answer to upgrade_begin (acks time out at 1.5 s).
    f = await startFleetServer(engine, { count: 10, prefix: 'SWENG', upgrades: { beginWaitMs: 1000 } });
  }, 90_000);

  afterAll(async () => {
    await f?.stop();
  }, 30_000);

  it('a datalogger that refuses upgrade_begin: the vendor start answers ret 1, the task ends failed; the next start works', async () => {
    const pn = f.pns[0]!;
    const fw = await f.addFirmware('SWDL-20.0.0', 10 * KB);
    upgradeFlags(f.logger(pn)).refuseBeginNext = true;
    const r = await call<{ ret: number; key?: string }>('firmwareUpgradeCollector', { pn, firmware: fw.code });
    expect(r.err).toBe(0);
    expect(r.dat).toEqual({ ret: 1 });
    const t = await lastTask(pn);
    expect(t).toMatchObject({
      status: 2,
      phase: 'done',
      sent_bytes: 0,
      error: 'reason:refusedByDatalogger|flash busy',
    });
    expect(t.ended_at).not.toBeNull();
    // Nothing runs: the status says "not in upgrade", the history has the failure.
    expect((await call('queryCollectorFirmwareUpgradeStatus', { pn })).dat).toMatchObject({ status: 5 });
    const op = await f.s.ctx.db
      .selectFrom('operation_log')
      .select(['result', 'detail'])
      .where('target', '=', t.key)
      .executeTakeFirstOrThrow();
    expect(op).toMatchObject({ result: 2 });
    expect(op.detail).toBe('reason:refusedByDatalogger|flash busy');
    // The flag cleared itself: the next start is accepted and completes.
    const again = await call<{ ret: number; key: string }>('firmwareUpgradeCollector', { pn, firmware: fw.code });
    expect(again.dat!.ret).toBe(0);
    expect((await ended(again.dat!.key)).status).toBe(3);
  });

  it('a datalogger that does not answer upgrade_begin in time: ret 1 within the wait, reason beginNoAnswer, nothing sent later', async () => {
    const pn = f.pns[1]!;
    const fw = await f.addFirmware('SWDL-20.1.0', 10 * KB);
    // Answers after 3 s: after the start's 1 s wait and the ack timeout (1.5 s).
    upgradeFlags(f.logger(pn)).delayBeginMs = 3000;
    const t0 = Date.now();
    const r = await call<{ ret: number }>('firmwareUpgradeCollector', { pn, firmware: fw.code });
    const took = Date.now() - t0;
    expect(r.dat).toEqual({ ret: 1 });
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(2500);
    const t = await lastTask(pn);
    expect(t).toMatchObject({ status: 2, phase: 'done', error: 'reason:beginNoAnswer' });
    // Read in the caller's language.
    const reason = async (lang: string) =>
      (await call<UpgradeTasksDat>('queryFirmwareUpgrades', { pn, lang })).dat!.task.find((x) => x.key === t.key)!
        .error;
    expect(await reason('de_DE')).toBe(
      'Der Datenlogger hat auf den Start der Aktualisierung nicht geantwortet; sie wurde nicht gestartet',
    );
    expect(await reason('en_US')).toBe('The datalogger did not answer the start of the upgrade; it was not started');
    // The late answer changes nothing: no chunk goes out, the task stays failed, no second outcome.
    await new Promise((res) => setTimeout(res, 3000));
    expect(await taskRow(t.key)).toMatchObject({ status: 2, sent_bytes: 0, error: 'reason:beginNoAnswer' });
    const ops = await f.s.ctx.db.selectFrom('operation_log').select('id').where('target', '=', t.key).execute();
    expect(ops).toHaveLength(1);
  });

  it('a batch does not wait on each begin: it records every target at once, and a refusing datalogger fails alone', async () => {
    const [a, b, c] = f.pns.slice(2, 5) as [string, string, string];
    const fw = await f.addFirmware('SWDL-20.2.0', 10 * KB);
    upgradeFlags(f.logger(b)).refuseBeginNext = true;
    upgradeFlags(f.logger(c)).delayBeginMs = 3000; // slower than the start's wait: the batch does not care
    const t0 = Date.now();
    const r = await call<{ batch: number; total: number; started: number; waiting: number; refused: unknown[] }>(
      'firmwareUpgradeBatch',
      { firmware: fw.code, pn: `${a},${b},${c}` },
    );
    expect(Date.now() - t0).toBeLessThan(2500); // not the 3 s of c's answer, nor a 1 s wait per target
    expect(r.dat).toMatchObject({ total: 3, started: 3, waiting: 0, refused: [] });
    const rows = async () =>
      f.s.ctx.db.selectFrom('upgrade_tasks').selectAll().where('batch_id', '=', r.dat!.batch).execute();
    await until('the batch ended', async () => (await rows()).every((x) => x.ended_at !== null), 40_000);
    const byPn = new Map((await rows()).map((x) => [x.pn, x]));
    expect(byPn.get(a)).toMatchObject({ status: 3, progress: 1000 });
    expect(byPn.get(b)).toMatchObject({ status: 2, error: 'reason:refusedByDatalogger|flash busy' });
    // Its begin was answered late: the batch's transfer (no start waiting) simply went on.
    expect(byPn.get(c)).toMatchObject({ status: 3, progress: 1000 });
  }, 60_000);

  it('drives at most UPGRADE_MAX_TRANSFERS at once (the others wait queued) and reads and hashes the image once', async () => {
    const targets = f.pns.slice(5, 10);
    await f.online(targets);
    // Only this test's engine drives: the app's stops (it would claim the queued tasks too).
    await f.s.ctx.services.upgradeEngine.stop();
    const fw = await f.addFirmware('SWDL-21.0.0', 40 * KB);
    const blobs = f.s.ctx.blobs;
    let reads = 0;
    const counting: BlobStore = {
      put: (src, o) => blobs.put(src, o),
      open: (k, r) => blobs.open(k, r),
      remove: (k) => blobs.remove(k),
      read: async (k) => {
        if (k === fw.blobKey) reads += 1;
        return blobs.read(k);
      },
    };
    // Transfers in flight as the datalogger side sees them: from upgrade_begin to the answer to upgrade_end.
    const open = new Set<string>();
    let maxOpen = 0;
    let maxInFlight = 0;
    const cmds = f.s.ctx.services.commands;
    const ref: { eng?: UpgradeEngineService } = {};
    const commands = Object.assign(Object.create(cmds) as typeof cmds, {
      send: async (pn: string, cmd: string, params: Record<string, unknown>, o?: Parameters<typeof cmds.send>[3]) => {
        const key = String(params.key);
        if (cmd === 'upgrade_begin') {
          open.add(key);
          maxOpen = Math.max(maxOpen, open.size);
        }
        maxInFlight = Math.max(maxInFlight, ref.eng?.inFlight ?? 0);
        try {
          return await cmds.send(pn, cmd as Parameters<typeof cmds.send>[1], params, o);
        } finally {
          if (cmd === 'upgrade_end') open.delete(key);
        }
      },
    });
    const eng = f.engine({ instance: 'capped', blobs: counting, commands, options: { maxTransfers: 2 } });
    ref.eng = eng;
    eng.startSweep();
    try {
      const results = await Promise.all(
        targets.map((pn) =>
          eng.start({ target: { pn, target: 0 }, firmwareId: fw.id, by: { accountId: f.vendorId, usr: 'sunmaker' } }),
        ),
      );
      expect(results.map((x) => x.ret)).toEqual([0, 0, 0, 0, 0]);
      // All five accepted; at most two begin at once, the other three start as slots free.
      const keys = results.map((x) => x.key!);
      await until(
        'all five completed',
        async () => {
          const rows = await f.s.ctx.db.selectFrom('upgrade_tasks').select('status').where('key', 'in', keys).execute();
          return rows.every((x) => Number(x.status) === 3);
        },
        60_000,
      );
      expect(maxOpen).toBe(2); // the cap was reached, never passed
      expect(maxInFlight).toBeLessThanOrEqual(2);
      expect(reads).toBe(1); // one read + hash for five transfers
      expect(eng.imageStats).toMatchObject({ loads: 1, cached: 1, cachedBytes: 40 * KB });
      const done = await f.s.ctx.db
        .selectFrom('upgrade_tasks')
        .select(['lease_owner', 'sent_bytes', 'attempts'])
        .where('key', 'in', keys)
        .execute();
      for (const d of done) expect(d).toMatchObject({ lease_owner: 'capped', sent_bytes: 40 * KB, attempts: 1 });
    } finally {
      await eng.stop();
    }
  }, 90_000);
});
