/**
 * The issue 10 spine over a real MQTT connection: DataloggerCommands sends a command to a live
 * simulated datalogger on the embedded broker and returns its ack; offline → 263, no ack → 2, an
 * ack from another datalogger never answers the command; the operation history is durable.
 */
import { ApiError } from '@sunwatch/protocol';
import { LiveFleet, MqttPublisher, simClock, type DataloggerSpec } from '@sunwatch/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { seedTelemetry } from '../../src/demo/seed-telemetry.js';
import { DataloggerCommands } from '../../src/modules/operations/command.service.js';
import { engines, startTestServer, type TestServer } from '../harness.js';

async function until(cond: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function errOf(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    return e instanceof ApiError ? e.code : -1;
  }
}

describe.each(engines)('datalogger commands over MQTT ($name)', (engine) => {
  let s: TestServer;
  let live: LiveFleet;
  let specs: DataloggerSpec[];

  beforeAll(async () => {
    s = await startTestServer(engine, {
      config: { telemetry: { ...loadConfig({}).telemetry, mqttPort: 0, mqttHost: '127.0.0.1', jobsEnabled: false } },
    });
    const { fleet } = await seedTelemetry(s);
    specs = fleet.dataloggers.slice(0, 2).map((d) => ({ ...structuredClone(d), offlineRate: 0 }));
    live = new LiveFleet(specs, {
      clock: simClock(),
      tickMs: 100,
      offlineSpells: false,
      publisherFor: (spec) =>
        new MqttPublisher({ url: `mqtt://127.0.0.1:${s.mqtt!.port}`, pn: spec.pn, token: spec.token }),
    });
    live.start();
    await until(() => live.loggers.every((l) => l.publisher.connected));
  });
  afterAll(async () => {
    await live?.stop();
    await s?.stop();
  });

  const setStatus = (pn: string, status: number) =>
    s.ctx.db.updateTable('dataloggers').set({ status }).where('pn', '=', pn).execute();

  it('sends a command and returns the datalogger’s ack; the datalogger really changed', async () => {
    const pn = specs[0]!.pn;
    await setStatus(pn, 0);
    const ack = await s.ctx.services.commands.send(pn, 'collect_interval', { collect_interval: 45 });
    expect(ack).toMatchObject({ pn, ok: true });
    expect(ack.id).toMatch(/^[0-9a-f]{16}$/);
    expect(live.loggers[0]!.spec.collectInterval).toBe(45);
  });

  it('a negative ack comes back as such', async () => {
    const pn = specs[0]!.pn;
    const ack = await s.ctx.services.commands.send(pn, 'collect_interval', { collect_interval: 1 });
    expect(ack.ok).toBe(false);
    expect(live.loggers[0]!.spec.collectInterval).toBe(45);
  });

  it('answers 263 for an offline datalogger and 257 for an unknown PN, without publishing', async () => {
    const pn = specs[1]!.pn;
    await setStatus(pn, 1);
    const before = live.loggers[1]!.spec.collectInterval;
    expect(await errOf(s.ctx.services.commands.send(pn, 'collect_interval', { collect_interval: 90 }))).toBe(263);
    await new Promise((r) => setTimeout(r, 300));
    expect(live.loggers[1]!.spec.collectInterval).toBe(before);
    await setStatus(pn, 0);
    expect(await errOf(s.ctx.services.commands.send('SWNOPE00000000', 'reboot'))).toBe(257);
  });

  it('answers 263 at once when the datalogger holds no connection to the broker, 2 when no ack arrives in time', async () => {
    const pn = specs[1]!.pn;
    const quiet = new DataloggerCommands({
      db: s.ctx.db,
      telemetry: s.ctx.services.telemetry,
      now: Date.now,
      timeoutMs: 400,
    });
    // marked online, but its link is cut: the embedded broker knows it cannot deliver
    await live.loggers[1]!.goOffline();
    try {
      await until(() => s.ctx.services.telemetry.isConnected(pn) === false);
      const t0 = Date.now();
      expect(await errOf(quiet.send(pn, 'collect_interval', { collect_interval: 60 }))).toBe(263);
      expect(Date.now() - t0).toBeLessThan(350);
    } finally {
      live.loggers[1]!.goOnline();
    }
    await until(() => live.loggers[1]!.publisher.connected && s.ctx.services.telemetry.isConnected(pn) === true);
    // connected, but the command is lost on the way: no ack → 2 after the timeout
    const telemetry = s.ctx.services.telemetry;
    const publish = telemetry.publishCommand.bind(telemetry);
    telemetry.publishCommand = () => Promise.resolve();
    try {
      const t0 = Date.now();
      expect(await errOf(quiet.send(pn, 'collect_interval', { collect_interval: 60 }))).toBe(2);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(350);
    } finally {
      telemetry.publishCommand = publish;
    }
  });

  it('an ack from another datalogger carrying the command’s id does not settle it', async () => {
    const pn = specs[1]!.pn;
    const quiet = new DataloggerCommands({
      db: s.ctx.db,
      telemetry: s.ctx.services.telemetry,
      now: Date.now,
      timeoutMs: 600,
    });
    const telemetry = s.ctx.services.telemetry;
    const publish = telemetry.publishCommand.bind(telemetry);
    let sentId = '';
    // keep the command from reaching datalogger 2 and note its id
    telemetry.publishCommand = (_pn: string, payload: string | Buffer) => {
      sentId = String(JSON.parse(payload.toString()).id);
      return Promise.resolve();
    };
    try {
      const pending = errOf(quiet.send(pn, 'collect_interval', { collect_interval: 60 }));
      await until(() => sentId !== '');
      telemetry.emitAck(specs[0]!.pn, Buffer.from(JSON.stringify({ id: sentId, ok: true })));
      expect(await pending).toBe(2);
      // the right datalogger's ack does settle it
      sentId = '';
      const second = quiet.send(pn, 'collect_interval', { collect_interval: 60 });
      await until(() => sentId !== '');
      telemetry.emitAck(pn, Buffer.from(JSON.stringify({ id: sentId, ok: false, code: 8, error: 'rejected' })));
      expect(await second).toMatchObject({ pn, id: sentId, ok: false, code: 8 });
    } finally {
      telemetry.publishCommand = publish;
    }
  });

  it('the operation history keeps an entry written inside a transaction that rolls back', async () => {
    await expect(
      s.ctx.dbh.transaction(async () => {
        await s.ctx.services.operations.record({
          accountId: null,
          usr: 'tester',
          action: 'ctrlDevice',
          pn: specs[0]!.pn,
          device: { devcode: 2341, devaddr: 1, sn: 'SNX' },
          kind: 'ctrl',
          target: 'output_priority',
          before: '0',
          after: '2',
          result: 2,
          detail: 'timeout',
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const rows = await s.ctx.db.selectFrom('operation_log').selectAll().where('usr', '=', 'tester').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'ctrl', target: 'output_priority', before: '"0"', after: '"2"', result: 2 });
  });
});
