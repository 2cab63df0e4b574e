import type { AuthDat, CollectorLogRow } from '@sunwatch/protocol';
import { DataloggerSim, LiveFleet, MqttPublisher, simClock, type DataloggerSpec } from '@sunwatch/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debugReply } from '../../../simulator/src/commands/datalogger.js';
import { loadConfig } from '../../src/config.js';
import { seedTelemetry } from '../../src/demo/seed-telemetry.js';
import { engines, startTestServer, type TestServer } from '../harness.js';

const NORTH = 'SWNORTH0000001';
const SOUTH = 'SWSOUTH0000001';
const CAPE = 'SWSOUTH0000002';
const ACK_MS = 2_000;

const PASSWORDS: Record<string, string> = {
  operator: 'Operator_2026',
  sunmaker: 'Maker_2026',
  dealer_north: 'Dealer_2026',
  dealer_south: 'Dealer_2026',
  owner_anna: 'Owner_2026',
  owner_ben: 'Owner_2026',
};

async function until(cond: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Datalogger commands end to end over a real MQTT connection: the server with its embedded broker
 * and live simulated dataloggers (the simulator's own command handlers answer). Reboot, debug,
 * reset, unbind, offline (263) and no acknowledgement (2), on SQLite and PostgreSQL.
 */
describe.each(engines)('datalogger commands over MQTT ($name)', (engine) => {
  let s: TestServer;
  let fleet: LiveFleet;
  let specs: DataloggerSpec[];
  const sessions = new Map<string, AuthDat>();
  const call = <T = unknown>(usr: string, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions.get(usr)!, action, params);

  const deviceIds = async (pn: string) =>
    (await s.ctx.db.selectFrom('devices').select('id').where('pn', '=', pn).execute()).map((r) => Number(r.id));
  const countWhere = async (table: 'samples' | 'device_days' | 'device_latest', ids: number[]) =>
    ids.length === 0
      ? 0
      : Number(
          (
            await s.ctx.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('device_id', 'in', ids)
              .executeTakeFirstOrThrow()
          ).n,
        );
  const events = async (pn: string, since: number) =>
    s.ctx.db
      .selectFrom('datalogger_events')
      .selectAll()
      .where('pn', '=', pn)
      .where('ts', '>=', since)
      .orderBy('id')
      .execute();
  const ops = async (pn: string, action: string) =>
    s.ctx.db
      .selectFrom('operation_log')
      .selectAll()
      .where('pn', '=', pn)
      .where('action', '=', action)
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    s = await startTestServer(engine, {
      config: {
        // A 2 s acknowledgement timeout (COMMAND_ACK_TIMEOUT_MS) keeps the no-answer case short.
        telemetry: {
          ...loadConfig({}).telemetry,
          mqttPort: 0,
          mqttHost: '127.0.0.1',
          jobsEnabled: false,
          commandAckTimeoutMs: ACK_MS,
        },
      },
    });
    const seeded = await seedTelemetry(s);
    specs = seeded.fleet.dataloggers
      .filter((d) => d.pn === NORTH || d.pn === SOUTH)
      .map((d) => ({ ...structuredClone(d), offlineRate: 0, heartbeatInterval: 30 }));
    // Six hours of history through ingestion: samples, latest values and daily rollups of both.
    const now = Date.now();
    for (const spec of specs) {
      const sim = new DataloggerSim(structuredClone(spec));
      for (let t = sim.nextSampleTs(now - 6 * 3_600_000); t < now - 60_000; t = sim.nextSampleTs(t + 1)) {
        const r = await s.ctx.services.telemetry.ingest.submitData(spec.pn, sim.frameAt(t));
        expect(r.ok).toBe(true);
      }
    }
    await s.ctx.services.telemetry.ingest.drain();
    // Live: both connect to the embedded broker and answer commands with the simulator's handlers.
    fleet = new LiveFleet(specs, {
      clock: simClock(),
      tickMs: 100,
      offlineSpells: false,
      publisherFor: (spec) =>
        new MqttPublisher({ url: `mqtt://127.0.0.1:${s.mqtt!.port}`, pn: spec.pn, token: spec.token }),
    });
    fleet.start();
    await until(() => fleet.loggers.every((l) => l.publisher.connected));
    for (const [usr, pwd] of Object.entries(PASSWORDS)) {
      const res = await s.login(usr, pwd);
      if (res.err !== 0) throw new Error(`login ${usr}: ${res.err}`);
      sessions.set(usr, res.dat!);
    }
  }, 120_000);

  afterAll(async () => {
    await fleet?.stop();
    await s?.stop();
  });

  it('reboot: the datalogger acknowledges (ret 0), drops its connection and connects again; the log shows it', async () => {
    const since = Date.now();
    const north = fleet.loggers.find((l) => l.spec.pn === NORTH)!;
    const bootBefore = north.bootedAt;
    const res = await call<{ ret: number; delay: number }>('dealer_north', 'restartCollector', { pn: NORTH });
    expect(res).toMatchObject({ err: 0, dat: { ret: 0, pn: NORTH, delay: 3 } });
    // Down, then back after the delay with a fresh boot.
    await until(() => !north.publisher.connected);
    await until(() => north.publisher.connected && north.bootedAt > bootBefore, 15_000);
    await until(async () => (await events(NORTH, since)).some((e) => e.kind === 'connect'));
    const kinds = (await events(NORTH, since)).map((e) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['command', 'ack', 'disconnect', 'connect']));
    expect(kinds.indexOf('ack')).toBeLessThan(kinds.lastIndexOf('connect'));
    // It was heard from before: a reconnection, no registration.
    expect(kinds).not.toContain('register');
    // The same through the log action, in the datalogger's local days.
    const today = new Date(Date.now() + 3600_000).toISOString().slice(0, 10);
    const log = await call<{ total: number; log: CollectorLogRow[] }>('dealer_north', 'webQueryCollectorLog', {
      pn: NORTH,
      sdate: today,
      edate: today,
      pagesize: 100,
    });
    expect(log.err).toBe(0);
    const cmd = log.dat!.log.find((r) => r.kind === 'command' && r.cmd === 'reboot')!;
    expect(cmd.usr).toBe('dealer_north');
    expect(log.dat!.log.some((r) => r.kind === 'connect')).toBe(true);
    // Operation history: who, what, result.
    const rec = await ops(NORTH, 'restartCollector');
    expect(rec.at(-1)).toMatchObject({ kind: 'reboot', result: 0, usr: 'dealer_north' });
  });

  it('debug: the device at the address answers the hex bytes; no device → 1; bad input → 6 / 7', async () => {
    const north = fleet.loggers.find((l) => l.spec.pn === NORTH)!;
    await until(() => north.publisher.connected);
    const dev = north.spec.devices[0]!;
    const res = await call<{ hex: string; cmd: string }>('dealer_north', 'debugCollector', {
      pn: NORTH,
      addr: dev.devaddr,
      step: '4',
      cmd: '03 00 10 00 02',
    });
    expect(res.err).toBe(0);
    const want = debugReply(dev.devaddr, dev.devcode, 4, [0x03, 0x00, 0x10, 0x00, 0x02])
      .map((b) => b.toString(16).toUpperCase().padStart(2, '0'))
      .join(' ');
    expect(res.dat).toMatchObject({ pn: NORTH, addr: dev.devaddr, step: 4, cmd: '03 00 10 00 02', hex: want });
    expect((await ops(NORTH, 'debugCollector')).at(-1)).toMatchObject({ kind: 'debug', result: 0, detail: want });

    expect((await call('dealer_north', 'debugCollector', { pn: NORTH, addr: 200, step: '0', cmd: 'AA BB' })).err).toBe(
      1,
    );
    expect((await ops(NORTH, 'debugCollector')).at(-1)).toMatchObject({ result: 1 });
    expect(
      (await call('dealer_north', 'debugCollector', { pn: NORTH, addr: dev.devaddr, step: '0', cmd: 'AAB' })).err,
    ).toBe(6);
    expect(
      (await call('dealer_north', 'debugCollector', { pn: NORTH, addr: dev.devaddr, step: 'x', cmd: 'AA' })).err,
    ).toBe(6);
    expect((await call('dealer_north', 'debugCollector', { pn: NORTH, step: '0', cmd: 'AA' })).err).toBe(7);
    // Owners do not debug (technician tool); another dealer's datalogger is not found.
    expect((await call('owner_anna', 'debugCollector', { pn: NORTH, addr: 1, step: '0', cmd: 'AA' })).err).toBe(11);
    expect((await call('dealer_south', 'debugCollector', { pn: NORTH, addr: 1, step: '0', cmd: 'AA' })).err).toBe(257);
  });

  it('offline → 263 (status offline, or no connection), recorded; no acknowledgement → 2', async () => {
    // CAPE has no live client: undeliverable at once.
    expect((await call('dealer_south', 'restartCollector', { pn: CAPE })).err).toBe(263);
    expect((await ops(CAPE, 'restartCollector')).at(-1)).toMatchObject({ kind: 'reboot', result: 263 });
    // Marked offline by the platform.
    await s.ctx.db.updateTable('dataloggers').set({ status: 1 }).where('pn', '=', CAPE).execute();
    expect((await call('dealer_south', 'resetCollector', { pn: CAPE, confirm: 'YES' })).err).toBe(263);
    await s.ctx.db.updateTable('dataloggers').set({ status: 0 }).where('pn', '=', CAPE).execute();
    // Connected but silent (a client that never answers): the platform waits, then answers 2.
    const spec = (await seedTelemetry(s)).fleet.dataloggers.find((d) => d.pn === CAPE)!;
    const mute = new MqttPublisher({ url: `mqtt://127.0.0.1:${s.mqtt!.port}`, pn: CAPE, token: spec.token });
    const tc = Date.now();
    await mute.connect();
    try {
      // CAPE was never heard from: its first connection is its registration, logged once.
      await until(async () => (await events(CAPE, tc)).some((e) => e.kind === 'connect'));
      expect((await events(CAPE, tc)).map((e) => e.kind)).toEqual(['register', 'connect']);
      await s.ctx.services.dataloggerEvents.record({ pn: CAPE, kind: 'connect', detail: 'again' });
      expect((await events(CAPE, tc)).map((e) => e.kind)).toEqual(['register', 'connect', 'connect']);
      const t0 = Date.now();
      expect((await call('dealer_south', 'restartCollector', { pn: CAPE })).err).toBe(2);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(ACK_MS - 100);
      expect((await ops(CAPE, 'restartCollector')).at(-1)).toMatchObject({ result: 2 });
      expect((await events(CAPE, t0)).map((e) => e.kind)).toEqual(expect.arrayContaining(['command', 'timeout']));
    } finally {
      await mute.close();
    }
  }, 30_000);

  it("reset (typed YES) deletes that datalogger's devices, samples, latest values and rollups only; it comes back", async () => {
    const south = fleet.loggers.find((l) => l.spec.pn === SOUTH)!;
    const north = fleet.loggers.find((l) => l.spec.pn === NORTH)!;
    await until(() => north.publisher.connected);
    // The other datalogger stops sending, so its rows are comparable before and after.
    await south.goOffline();
    await s.ctx.services.telemetry.ingest.drain();
    const northIds = await deviceIds(NORTH);
    const southIds = await deviceIds(SOUTH);
    expect(await countWhere('samples', northIds)).toBeGreaterThan(50);
    expect(await countWhere('device_days', northIds)).toBeGreaterThan(0);
    const southBefore = {
      samples: await countWhere('samples', southIds),
      days: await countWhere('device_days', southIds),
      latest: await countWhere('device_latest', southIds),
      devices: southIds.length,
    };
    expect(southBefore.samples).toBeGreaterThan(50);
    await s.ctx.db
      .insertInto('alarms')
      .values({
        datalogger_id: Number(
          (await s.ctx.db.selectFrom('dataloggers').select('id').where('pn', '=', NORTH).executeTakeFirstOrThrow()).id,
        ),
        device_id: northIds[0]!,
        level: 0,
        code: 1,
        description: 'test',
        started_at: Date.now(),
        ended_at: null,
        handled: 0,
      })
      .execute();

    // Typed YES only; owners may not reset.
    expect((await call('sunmaker', 'resetCollector', { pn: NORTH, confirm: 'yes' })).err).toBe(6);
    expect((await call('owner_anna', 'resetCollector', { pn: NORTH, confirm: 'YES' })).err).toBe(11);
    expect(await countWhere('samples', northIds)).toBeGreaterThan(50);

    const res = await call<{ devices: number; samples: number }>('sunmaker', 'resetCollector', {
      pn: NORTH,
      confirm: 'YES',
    });
    expect(res.err).toBe(0);
    expect(res.dat!.devices).toBe(northIds.length);
    expect(res.dat!.samples).toBeGreaterThan(50);
    expect(await countWhere('samples', northIds)).toBe(0);
    expect(await countWhere('device_days', northIds)).toBe(0);
    expect(await countWhere('device_latest', northIds)).toBe(0);
    expect(await s.ctx.db.selectFrom('alarms').select('id').where('device_id', 'in', northIds).execute()).toHaveLength(
      0,
    );
    expect((await deviceIds(NORTH)).filter((id) => northIds.includes(id))).toEqual([]);
    // Nothing else.
    expect({
      samples: await countWhere('samples', southIds),
      days: await countWhere('device_days', southIds),
      latest: await countWhere('device_latest', southIds),
      devices: (await deviceIds(SOUTH)).length,
    }).toEqual(southBefore);
    expect((await ops(NORTH, 'resetCollector')).at(-1)).toMatchObject({ kind: 'reset', result: 0, usr: 'sunmaker' });
    // The datalogger forgot its buffer and comes back, its next frame registers its devices anew.
    await until(() => north.publisher.connected, 15_000);
    // Its connection after the reset is a registration, in the log after the acknowledgement.
    const resetAck = (await events(NORTH, 0)).filter((e) => e.kind === 'ack' && e.cmd === 'reset').at(-1)!;
    expect(resetAck.result).toBe(0);
    await until(async () => (await events(NORTH, Number(resetAck.ts))).some((e) => e.kind === 'connect'));
    const after = (await events(NORTH, Number(resetAck.ts))).map((e) => e.kind);
    expect(after.filter((k) => k === 'register')).toHaveLength(1);
    expect(after.indexOf('register')).toBe(after.indexOf('connect') - 1);
    const today = new Date(Date.now() + 3600_000).toISOString().slice(0, 10);
    const log = await call<{ log: CollectorLogRow[] }>('sunmaker', 'webQueryCollectorLog', {
      pn: NORTH,
      sdate: today,
      edate: today,
      kind: 'register',
      pagesize: 100,
    });
    expect(log.err).toBe(0);
    expect(log.dat!.log.length).toBeGreaterThanOrEqual(1);
    expect(log.dat!.log.every((r) => r.kind === 'register')).toBe(true);
    south.goOnline();
  }, 60_000);

  it('unbind (typed YES) clears the dealer admin and the owner binding; the owner binds it again', async () => {
    const north = fleet.loggers.find((l) => l.spec.pn === NORTH)!;
    await until(() => north.publisher.connected, 15_000);
    const row = async () =>
      await s.ctx.db.selectFrom('dataloggers').selectAll().where('pn', '=', NORTH).executeTakeFirstOrThrow();
    const before = await row();
    expect(before.owner_id).not.toBeNull();
    expect((await call('dealer_north', 'unbindCollector', { pn: NORTH, confirm: 'NO' })).err).toBe(6);
    expect((await call('dealer_north', 'unbindCollector', { pn: NORTH, confirm: 'YES' })).err).toBe(0);
    const after = await row();
    expect(after).toMatchObject({ admin_id: null, owner_id: null, project_id: null, vendor_id: before.vendor_id });
    expect((await ops(NORTH, 'unbindCollector')).at(-1)).toMatchObject({ kind: 'unbind', result: 0 });
    // Anna no longer sees it; she binds it to her plant again and it has her dealer back.
    expect((await call('owner_anna', 'queryCollectorDetail', { pn: NORTH })).err).toBe(257);
    expect(
      (
        await call('owner_anna', 'addCollectorToPlant', {
          plantid: Number(before.project_id),
          pn: NORTH,
          alias: 'rebound',
        })
      ).err,
    ).toBe(0);
    expect(await row()).toMatchObject({
      owner_id: before.owner_id,
      admin_id: before.admin_id,
      project_id: before.project_id,
      alias: 'rebound',
    });
    const detail = await call<{ pn: string; usr: string; adminUsr: string; can: { reset: boolean; delete: boolean } }>(
      'owner_anna',
      'queryCollectorDetail',
      { pn: NORTH },
    );
    expect(detail.dat).toMatchObject({
      pn: NORTH,
      usr: 'owner_anna',
      adminUsr: 'dealer_north',
      can: { reset: false, delete: true },
    });
  });

  it('edit: a new collection interval is sent to the datalogger first and it samples accordingly; no change → 271', async () => {
    const north = fleet.loggers.find((l) => l.spec.pn === NORTH)!;
    await until(() => north.publisher.connected, 15_000);
    expect(
      (await call('owner_anna', 'editCollectorEs', { pn: NORTH, datFetch: 120, 'address.city': 'Altona' })).err,
    ).toBe(0);
    expect(north.spec.collectInterval).toBe(120);
    const row = await s.ctx.db.selectFrom('dataloggers').selectAll().where('pn', '=', NORTH).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ collect_interval: 120, city: 'Altona' });
    expect((await call('owner_anna', 'editCollectorEs', { pn: NORTH, datFetch: 120 })).err).toBe(271);
    expect((await ops(NORTH, 'editCollectorEs')).map((o) => [o.kind, o.target, o.result])).toEqual([
      ['edit', 'city,collect_interval', 0],
    ]);
    // The interval command and its acknowledgement are in the datalogger log.
    expect((await events(NORTH, 0)).filter((e) => e.cmd === 'collect_interval').map((e) => [e.kind, e.result])).toEqual(
      [
        ['command', 0],
        ['ack', 0],
      ],
    );
  });
});
