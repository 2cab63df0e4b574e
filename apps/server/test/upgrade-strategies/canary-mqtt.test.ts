import { randomBytes, createHash } from 'node:crypto';
import {
  encodePairs,
  signCall,
  type AuthDat,
  type Envelope,
  type StrategyDeviceListDat,
  type StrategyListDat,
} from '@sunwatch/protocol';
import { demoFirmwareSigningKey, signFirmwareDigest } from '@sunwatch/protocol/node/firmware-keys.ts';
import { buildFleet, LiveFleet, MqttPublisher, simClock, upgradeFlags, type DataloggerSpec } from '@sunwatch/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { seedDemoFirmware } from '../../src/demo/seed-firmware.js';
import { provisionFleet } from '../../src/demo/seed-telemetry.js';
import { JobRunner } from '../../src/jobs/job-runner.js';
import { StrategyRollout } from '../../src/modules/upgrade-strategies/strategy-rollout.js';
import { engines, startTestServer, type TestServer } from '../harness.js';

/**
 * Issue 13's end-to-end proof of a canary rollout (docs/firmware/strategies.md): 20 simulated
 * dataloggers over the app's real MQTT broker, a signed image uploaded through `uploadFirmware`, a
 * force strategy with a 10 % canary and a 20 % failure threshold. The two canary dataloggers fail
 * their flash: the strategy pauses and nothing else starts. After the failure flags are cleared and
 * the strategy is resumed, the other 18 upgrade over MQTT to 1000 and report the new version.
 */

const KB = 1024;
const VERSION = 'SWDL-9.1.0';

async function until<T>(what: string, f: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `YYYY-MM-DD HH:mm:ss` in UTC (the strategy's timezone below is 0). */
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

describe.each(engines)('a canary strategy over real MQTT ($name)', (engine) => {
  let s: TestServer;
  let fleet: LiveFleet;
  let specs: DataloggerSpec[];
  let maker: AuthDat;
  let rollout: StrategyRollout;
  let jobs: JobRunner;

  /**
   * One pass of the rollout job under its database lease (`upgrade-strategies`), as the app's
   * scheduled job runs it. The test's runner keeps the lease (a long one, renewed every pass), so
   * the app's own 5 s schedule stands aside the way a second instance would: one driver at a time.
   */
  async function pass(): Promise<void> {
    await until('the upgrade-strategies lease', async () => jobs.runOnce('upgrade-strategies', 120_000, () => rollout.runOnce().then(() => undefined)));
  }

  beforeAll(async () => {
    s = await startTestServer(engine, {
      config: {
        telemetry: {
          ...loadConfig({}).telemetry,
          mqttPort: 0,
          mqttHost: '127.0.0.1',
          jobsEnabled: false,
          commandAckTimeoutMs: 1500,
        },
        upgrades: { chunkBytes: 2 * KB, leaseMs: 5000, sweepMs: 200, flashTimeoutMs: 30_000 },
      },
    });
    // The demo signing key of the manufacturer (and its demo firmwares; the test uploads its own).
    await seedDemoFirmware(s);
    const built = buildFleet({ count: 20, prefix: 'SWCAN' });
    const provisioned = await provisionFleet(s, built);
    specs = provisioned.dataloggers.map((d) => ({
      ...d,
      devices: d.devices.slice(0, 1),
      offlineRate: 0,
      warningRate: 0,
      faultRate: 0,
      collectInterval: 60,
      heartbeatInterval: 5,
    }));
    fleet = new LiveFleet(specs, {
      clock: simClock(),
      tickMs: 100,
      offlineSpells: false,
      publisherFor: (d) => new MqttPublisher({ url: `mqtt://127.0.0.1:${s.mqtt!.port}`, pn: d.pn, token: d.token }),
    });
    fleet.start();
    const r = await s.login('sunmaker', 'Maker_2026');
    expect(r.err).toBe(0);
    maker = r.dat as AuthDat;
    // The rollout job the app schedules (jobs/upgrade-strategies.job.ts), driven pass by pass.
    jobs = new JobRunner(s.ctx.db, s.ctx.now, s.ctx.log);
    rollout = new StrategyRollout({
      db: s.ctx.db,
      dbh: s.ctx.dbh,
      audit: s.ctx.services.audit,
      access: s.ctx.services.access,
      now: s.ctx.now,
      log: s.ctx.log,
      engine: s.ctx.services.upgradeEngine,
    });
    const pns = specs.map((d) => d.pn);
    await until('all 20 dataloggers online over MQTT', async () => {
      const rows = await s.ctx.db.selectFrom('dataloggers').select(['pn', 'status']).where('pn', 'in', pns).execute();
      return rows.filter((x) => x.status === 0).length === 20 && pns.every((pn) => s.ctx.services.telemetry.isConnected(pn) !== false);
    });
  }, 60_000);

  afterAll(async () => {
    await fleet?.stop();
    await s?.stop();
  }, 30_000);

  /** uploadFirmware (multipart), signed with the demo key over the image's SHA-256. */
  async function upload(image: Buffer): Promise<string> {
    const sha = createHash('sha256').update(image).digest('hex');
    const params = {
      firmwareName: 'Canary image',
      firmwareVersion: VERSION,
      type: 0,
      signature: signFirmwareDigest(demoFirmwareSigningKey().privateKey, sha),
    };
    const salt = String(Date.now());
    const tail = `&action=uploadFirmware${encodePairs(params)}`;
    const q = `/public/?sign=${signCall(salt, maker.secret, maker.token, tail)}&salt=${salt}&token=${maker.token}${tail}`;
    const fd = new FormData();
    fd.set('file', new Blob([new Uint8Array(image)]), 'canary.bin');
    const res = (await s.request<Envelope<{ firmware: string; signed: boolean }>>(q, { method: 'POST', body: fd })).body;
    expect(res.err).toBe(0);
    expect(res.dat!.signed).toBe(true);
    return res.dat!.firmware;
  }

  it('pauses when the 10 % canary fails, starts nothing else, and completes the other 18 after resume', async () => {
    const pns = specs.map((d) => d.pn);
    const firmware = await upload(randomBytes(8 * KB));
    const now = Date.now();
    const add = await s.call<{ code: string }>(maker, 'addUpgradeStrategy', {
      name: 'Canary over MQTT',
      description: 'Datalogger firmware 9.1',
      firmware,
      type: 0,
      baudRate: 9600,
      timezone: 0,
      startTime: utc(now - 60_000),
      endTime: utc(now + 86_400_000),
      method: 0,
      devices: pns.join(','),
      canaryPercent: 10,
      failureThresholdPercent: 20,
    });
    expect(add.err).toBe(0);
    const code = add.dat!.code;
    const id = Number(
      (await s.ctx.db.selectFrom('upgrade_strategies').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id,
    );
    const tasks = () => s.ctx.db.selectFrom('upgrade_tasks').selectAll().where('strategy_id', '=', id).orderBy('id').execute();
    const row = async () => {
      const r = await s.call<StrategyListDat>(maker, 'queryUpgradeStrategies', { search: code, pagesize: 10 });
      expect(r.err).toBe(0);
      return r.dat!.strategy.find((x) => x.code === code)!;
    };

    // Every datalogger would fail its next flash; only the canary gets to try.
    for (const l of fleet.loggers) upgradeFlags(l).failNext = true;
    await pass();
    const canary = await tasks();
    expect(canary).toHaveLength(2);
    const canaryPns = canary.map((t) => t.pn).sort();

    // The canary fails over MQTT; the next pass judges the stage and pauses.
    const paused = await until(
      'the canary to fail and the strategy to pause',
      async () => {
        await pass();
        const r = await row();
        return r.paused ? r : undefined;
      },
      40_000,
    );
    expect(paused).toMatchObject({ paused: true, stage: 0, upgraded: 2, success: 0, failed: 2 });
    expect(paused).toMatchObject({ pauseCode: 'stageFailed', pauseReason: 'Canary stage: 2 of 2 upgrades failed (100 % > 20 %)' });
    const ended = await tasks();
    expect(ended.map((t) => [t.pn, t.status])).toEqual(canary.map((t) => [t.pn, 2]));
    // Paused: further passes start nothing; the others never received an image.
    await pass();
    expect(await tasks()).toHaveLength(2);
    for (const l of fleet.loggers) {
      if (!canaryPns.includes(l.spec.pn)) expect(upgradeFlags(l).failNext).toBe(true);
      expect(l.spec.firmware ?? '').not.toBe(VERSION);
    }

    // Clear the failure flags and resume: the other 18 are released and upgrade over MQTT.
    for (const l of fleet.loggers) upgradeFlags(l).failNext = false;
    expect((await s.call(maker, 'resumeUpgradeStrategy', { code })).err).toBe(0);
    const done = await until(
      'the 18 remaining upgrades to end',
      async () => {
        await pass();
        const r = await row();
        return r.upgraded === 20 && r.success + r.failed === 20 ? r : undefined;
      },
      50_000,
    );
    const all = await tasks();
    // On a mismatch, say which tasks failed and why.
    const failedTasks = all.filter((t) => t.status !== 3).map((t) => `${t.pn} ${t.status} ${t.phase} ${t.progress} ${t.error}`);
    expect({ ...done, failedTasks: failedTasks.length }, failedTasks.join('; ')).toMatchObject({ paused: false, stage: 1, deviceCount: 20, upgraded: 20, success: 18, failed: 2, failedTasks: 2 });
    expect(all).toHaveLength(20);
    expect(new Set(all.map((t) => t.pn)).size).toBe(20); // one task per datalogger
    const rest = all.filter((t) => !canaryPns.includes(t.pn));
    expect(rest).toHaveLength(18);
    for (const t of rest) expect([t.pn, t.status, t.progress]).toEqual([t.pn, 3, 1000]);

    // The simulated dataloggers run the new version, and their heartbeats say so.
    for (const l of fleet.loggers) {
      expect([l.spec.pn, l.spec.firmware === VERSION]).toEqual([l.spec.pn, !canaryPns.includes(l.spec.pn)]);
    }
    await until('the new version in the datalogger rows', async () => {
      const rows = await s.ctx.db.selectFrom('dataloggers').select(['pn', 'firmware']).where('pn', 'in', pns).execute();
      return rows.filter((x) => x.firmware === VERSION).length === 18;
    });

    // The per-device results of the strategy.
    const devs = await s.call<StrategyDeviceListDat>(maker, 'queryUpgradeStrategyDevices', { code, pagesize: 50 });
    expect(devs.err).toBe(0);
    const byPn = new Map(devs.dat!.device.map((d) => [d.pn, d]));
    expect(byPn.size).toBe(20);
    for (const pn of pns) {
      const d = byPn.get(pn)!;
      if (canaryPns.includes(pn)) expect(d).toMatchObject({ stage: 0, result: 3 });
      else expect(d).toMatchObject({ stage: 1, result: 2, progress: 1000 });
    }
  }, 120_000);
});
