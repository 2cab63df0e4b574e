import { ROLE, type AuthDat, type StrategyDeviceListDat, type UpgradeTasksDat, type UpgradeableRow } from '@sunwatch/protocol';
import { demoFirmwareSigningKey } from '@sunwatch/protocol/node/firmware-keys.ts';
import { upgradeFlags, type DataloggerSpec, type LiveDatalogger, type LiveFleet } from '@sunwatch/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTelemetry } from '../../src/demo/seed-telemetry.js';
import { StrategyRollout } from '../../src/modules/upgrade-strategies/strategy-rollout.js';
import { makeAccount } from '../distribution/helpers.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import {
  KB,
  accountId,
  addDemoSigningKey,
  liveFleetConfig,
  quietLogger,
  startLiveFleet,
  storeFirmware,
  until,
} from './fleet-helpers.js';

/**
 * The upgrade engine end to end (issue 13): the server sends signed images over the embedded MQTT
 * broker to live simulated dataloggers, which verify, flash, report progress and reboot into the
 * new version. docs/firmware/engine.md.
 */

const ANNA = 'SWNORTH0000001';
const BEN = 'SWSOUTH0000001';
const BEN2 = 'SWSOUTH0000002';
const INV = { pn: ANNA, devcode: 2341, devaddr: 1, sn: 'SW2341N0000101' };
type Session = { token: string; secret: string };
type Wire = Record<string, string | number>;

describe.each(engines)('firmware upgrades against live simulated dataloggers ($name)', (engine) => {
  let s: TestServer;
  let fleet: LiveFleet;
  let late: LiveFleet | undefined;
  let specs: DataloggerSpec[];
  const sessions: Record<string, Session> = {};
  let vendorId: number;
  let keyId: number;

  const call = async <T = Record<string, unknown>>(who: string, action: string, params: Wire = {}) =>
    s.call<T>(sessions[who]!, action, params);
  const logger = (pn: string): LiveDatalogger =>
    [...fleet.loggers, ...(late?.loggers ?? [])].find((l) => l.spec.pn === pn)!;


  /** Stores an image in the blob store and a firmware row; signed by the demo key unless told. */
  const addFirmware = (o: { version: string; type?: number; size?: number; sign?: 'demo' | 'forged' | 'none'; baudRate?: number }) =>
    storeFirmware(s, { vendorId, keyId, ...o });

  const taskRow = (key: string) =>
    s.ctx.db.selectFrom('upgrade_tasks').selectAll().where('key', '=', key).executeTakeFirstOrThrow();

  /** Polls the vendor progress action until the task ends; returns every progress seen. */
  async function watch(who: string, pn: string, key: string): Promise<{ status: number; seen: number[] }> {
    const seen: number[] = [];
    const status = await until(`task ${key} to end`, async () => {
      const r = await call<{ status: number; progress: number }>(who, 'queryCollectorFirmwareUpgradeProgress', {
        pn,
        key,
      });
      expect(r.err).toBe(0);
      seen.push(r.dat!.progress);
      return r.dat!.status !== 0 ? r.dat!.status : undefined;
    });
    return { status, seen };
  }

  const firmwareOf = async (pn: string) =>
    (await s.ctx.db.selectFrom('dataloggers').select('firmware').where('pn', '=', pn).executeTakeFirstOrThrow())
      .firmware;

  beforeAll(async () => {
    s = await startTestServer(engine, { config: liveFleetConfig() });
    const { fleet: spec } = await seedTelemetry(s);
    const quiet = (pn: string) => quietLogger(spec.dataloggers.find((d) => d.pn === pn)!);
    specs = [quiet(ANNA), quiet(BEN), quiet(BEN2)];
    fleet = startLiveFleet(s, specs.slice(0, 2));
    for (const [usr, pwd] of [
      ['owner_anna', 'Owner_2026'],
      ['owner_ben', 'Owner_2026'],
      ['dealer_north', 'Dealer_2026'],
      ['sunmaker', 'Maker_2026'],
    ] as const) {
      const r = await s.login(usr, pwd);
      expect(r.err, usr).toBe(0);
      sessions[usr] = { token: (r.dat as AuthDat).token, secret: (r.dat as AuthDat).secret };
    }
    vendorId = await accountId(s, 'sunmaker');
    keyId = await addDemoSigningKey(s, vendorId);
    await until('both dataloggers online and connected', async () => {
      const rows = await s.ctx.db
        .selectFrom('dataloggers')
        .select(['pn', 'status'])
        .where('pn', 'in', [ANNA, BEN])
        .execute();
      return rows.filter((r) => r.status === 0).length === 2 && s.ctx.services.telemetry.isConnected(ANNA) !== false;
    });
  }, 60_000);

  afterAll(async () => {
    await late?.stop();
    await fleet?.stop();
    await s?.stop();
  }, 30_000);

  it('answers the vendor shapes when nothing ran: status 5, last record 12', async () => {
    const st = await call('sunmaker', 'queryCollectorFirmwareUpgradeStatus', { pn: BEN });
    expect(st).toMatchObject({ err: 0, dat: { status: 5 } });
    expect(Object.keys(st.dat!)).toEqual(['status']);
    expect((await call('sunmaker', 'queryCollectorFirmwareUpgradeLastRecord', { pn: BEN })).err).toBe(12);
    const pr = await call('sunmaker', 'queryCollectorFirmwareUpgradeProgress', { pn: BEN, key: 'nosuchkey' });
    expect(pr.dat).toEqual({ status: 5, progress: 0 });
  });

  it('upgrades a datalogger 0 → 1000 and its heartbeat then carries the new version', async () => {
    const fw = await addFirmware({ version: 'SWDL-3.0.0' });
    const r = await call<{ ret: number; key: string }>('sunmaker', 'firmwareUpgradeCollector', {
      pn: ANNA,
      firmware: fw.code,
    });
    expect(r.err).toBe(0);
    expect(Object.keys(r.dat!)).toEqual(['ret', 'key']);
    expect(r.dat!.ret).toBe(0);
    // A second request while it runs: already upgrading (3), no key.
    const again = await call('sunmaker', 'firmwareUpgradeCollector', { pn: ANNA, firmware: fw.code });
    expect(again.dat).toEqual({ ret: 3 });
    const running = await call<{ status: number; key: string; progress: number }>(
      'sunmaker',
      'queryCollectorFirmwareUpgradeStatus',
      { pn: ANNA },
    );
    expect(running.dat).toMatchObject({ status: 0, key: r.dat!.key });
    const { status, seen } = await watch('sunmaker', ANNA, r.dat!.key);
    expect(status).toBe(3);
    expect(seen.at(-1)).toBe(1000);
    expect(seen.some((p) => p > 0 && p < 1000)).toBe(true);
    expect(seen).toEqual([...seen].sort((a, b) => a - b)); // never goes back
    await until('the new version in the device info', async () => (await firmwareOf(ANNA)) === 'SWDL-3.0.0');
    const info = await call<{ firmware?: string }>('sunmaker', 'queryCollectorDetail', { pn: ANNA });
    expect(JSON.stringify(info.dat)).toContain('SWDL-3.0.0');
    const last = await call('sunmaker', 'queryCollectorFirmwareUpgradeLastRecord', { pn: ANNA });
    expect(Object.keys(last.dat!)).toEqual(['ts', 'status', 'progress']);
    expect(last.dat).toMatchObject({ status: 3, progress: 1000 });
    expect(String(last.dat!.ts)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // The operation history: who, from → to, the outcome.
    const op = await s.ctx.db
      .selectFrom('operation_log')
      .selectAll()
      .where('pn', '=', ANNA)
      .where('kind', '=', 'upgrade')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(op).toMatchObject({ usr: 'sunmaker', result: 0, target: r.dat!.key });
    expect(op.before).toContain('SWDL-2.4.1');
    expect(op.after).toContain('SWDL-3.0.0');
  });

  it('resumes a transfer after the datalogger drops offline halfway, and completes', async () => {
    const fw = await addFirmware({ version: 'SWDL-3.1.0' });
    await until('Anna back online after the reboot', async () => s.ctx.services.telemetry.isConnected(ANNA) !== false);
    // Away longer than the ack wait (1.5 s): a chunk the broker queued for it cannot be answered in time, so the
    // engine parks the task (it does not depend on how fast the broker notices the drop).
    Object.assign(upgradeFlags(logger(ANNA)), { offlineAfterChunks: 8, offlineForMs: 4000 });
    const r = await call<{ ret: number; key: string }>('sunmaker', 'firmwareUpgradeCollector', {
      pn: ANNA,
      firmware: fw.code,
    });
    expect(r.dat!.ret).toBe(0);
    await until('the task parked while offline', async () => (await taskRow(r.dat!.key)).phase === 'waiting');
    const parked = await taskRow(r.dat!.key);
    expect(Number(parked.sent_bytes)).toBeGreaterThanOrEqual(8 * 2 * KB);
    const { status } = await watch('sunmaker', ANNA, r.dat!.key);
    expect(status).toBe(3);
    const done = await taskRow(r.dat!.key);
    expect(Number(done.attempts)).toBeGreaterThanOrEqual(2); // begun twice: the second from `have`
    await until('the new version', async () => (await firmwareOf(ANNA)) === 'SWDL-3.1.0');
  });

  it('reports a forced failure as failed (2) and keeps the running version', async () => {
    const fw = await addFirmware({ version: 'SWDL-9.9.9' });
    await until('Anna connected', async () => s.ctx.services.telemetry.isConnected(ANNA) !== false);
    upgradeFlags(logger(BEN)).failNext = true;
    const before = await firmwareOf(BEN);
    const r = await call<{ ret: number; key: string }>('sunmaker', 'firmwareUpgradeCollector', {
      pn: BEN,
      firmware: fw.code,
    });
    expect(r.dat!.ret).toBe(0);
    const { status } = await watch('sunmaker', BEN, r.dat!.key);
    expect(status).toBe(2);
    // Stored as a reason code plus the datalogger's words; read in the caller's language.
    expect((await taskRow(r.dat!.key)).error).toBe('reason:flashFailed|flash write failed');
    const reason = async (lang: string) =>
      (await call<UpgradeTasksDat>('sunmaker', 'queryFirmwareUpgrades', { pn: BEN, lang })).dat!.task.find((t) => t.key === r.dat!.key)!.error;
    expect(await reason('de_DE')).toBe('Das Flashen ist auf dem Datenlogger fehlgeschlagen: flash write failed');
    expect(await reason('zh_CN')).toBe('数据采集器烧录失败：flash write failed');
    expect(await reason('en_US')).toBe('Flashing failed on the datalogger: flash write failed');
    // A row written before the codes keeps its free text, in every language.
    await s.ctx.db.updateTable('upgrade_tasks').set({ error: 'failed on the datalogger' }).where('key', '=', r.dat!.key).execute();
    expect(await reason('de_DE')).toBe('failed on the datalogger');
    expect(await firmwareOf(BEN)).toBe(before);
  });

  it('cancels a running upgrade (4); the datalogger upgrades again afterwards', async () => {
    const fw = await addFirmware({ version: 'SWDL-4.0.0', size: 80 * KB });
    const r = await call<{ ret: number; key: string }>('sunmaker', 'firmwareUpgradeCollector', {
      pn: BEN,
      firmware: fw.code,
    });
    expect(r.dat!.ret).toBe(0);
    await until('some bytes sent', async () => Number((await taskRow(r.dat!.key)).sent_bytes) > 0);
    const c = await call('sunmaker', 'cancelCollectorFirmwareUpgrade', { pn: BEN, key: r.dat!.key });
    expect(c).toMatchObject({ err: 0, dat: { ret: 0, status: 4 } });
    // The history stores who cancelled as a reason code, and reads it in the caller's language.
    const cancelled = await s.ctx.db
      .selectFrom('operation_log')
      .select('detail')
      .where('target', '=', r.dat!.key)
      .where('kind', '=', 'upgrade')
      .executeTakeFirstOrThrow();
    expect(cancelled.detail).toBe('reason:cancelled|sunmaker');
    const hist = await call<{ log: { target: string; detail: string }[] }>('sunmaker', 'webQueryOperationLog', {
      pn: BEN,
      kind: 'upgrade',
      page: 0,
      pagesize: 50,
      lang: 'fr_FR',
    });
    expect(hist.dat!.log.find((e) => e.target === r.dat!.key)!.detail).toBe('Annulée par: sunmaker');
    const sentAtCancel = Number((await taskRow(r.dat!.key)).sent_bytes);
    expect(sentAtCancel).toBeLessThan(80 * KB);
    // Cancelling twice: cancel failure.
    expect((await call('sunmaker', 'cancelCollectorFirmwareUpgrade', { pn: BEN, key: r.dat!.key })).dat).toMatchObject({
      ret: 1,
      status: 4,
    });
    await s.ctx.services.upgradeEngine.idle();
    expect((await taskRow(r.dat!.key)).status).toBe(4);
    expect(
      (await call('sunmaker', 'queryCollectorFirmwareUpgradeProgress', { pn: BEN, key: r.dat!.key })).dat,
    ).toMatchObject({ status: 4 });
    const again = await call<{ ret: number; key: string }>('sunmaker', 'firmwareUpgradeCollector', {
      pn: BEN,
      firmware: fw.code,
    });
    expect(again.dat!.ret).toBe(0);
    expect((await watch('sunmaker', BEN, again.dat!.key)).status).toBe(3);
  });

  it('two starts at the same moment make one task; the other answers already upgrading (3)', async () => {
    const fw = await addFirmware({ version: 'SWDL-4.1.0', size: 80 * KB });
    const engine = s.ctx.services.upgradeEngine;
    // back online after the previous test's upgrade (the datalogger reboots into the new image)
    await until('BEN online', async () => {
      const dl = await s.ctx.db.selectFrom('dataloggers').select('status').where('pn', '=', BEN).executeTakeFirst();
      return dl?.status === 0 && s.ctx.services.telemetry.isConnected(BEN) !== false;
    });
    const req = { target: { target: 0 as const, pn: BEN }, firmwareId: fw.id, by: { accountId: vendorId, usr: 'sunmaker' } };
    // both pass the "no running task" check before either inserts (a strategy pass and a manual
    // start, or two instances): the database's one-running-task index decides (migration 0023)
    const results = await Promise.all([engine.start(req), engine.start(req), engine.start(req)]);
    expect(results.map((r) => r.ret).sort()).toEqual([0, 3, 3]);
    const running = await s.ctx.db
      .selectFrom('upgrade_tasks')
      .select('key')
      .where('pn', '=', BEN)
      .where('ended_at', 'is', null)
      .execute();
    expect(running.map((r) => r.key)).toEqual([results.find((r) => r.ret === 0)!.key]);
    expect((await watch('sunmaker', BEN, running[0]!.key)).status).toBe(3);
  });

  it('refuses images that are unsigned, forged or whose key is revoked (352); the datalogger refuses a forged one sent anyway', async () => {
    const unsigned = await addFirmware({ version: 'SWDL-5.0.0', sign: 'none' });
    const forged = await addFirmware({ version: 'SWDL-5.0.1', sign: 'forged', size: 6 * KB });
    await until('Ben connected', async () => s.ctx.services.telemetry.isConnected(BEN) !== false);
    for (const fw of [unsigned, forged]) {
      const r = await call('sunmaker', 'firmwareUpgradeCollector', { pn: BEN, firmware: fw.code });
      expect(r.err, fw.code).toBe(352);
    }
    // Missing from the store: 352 too.
    const gone = await addFirmware({ version: 'SWDL-5.0.2' });
    const blobKey = (
      await s.ctx.db.selectFrom('firmwares').select('blob_key').where('id', '=', gone.id).executeTakeFirstOrThrow()
    ).blob_key;
    await s.ctx.blobs.remove(blobKey);
    expect((await call('sunmaker', 'firmwareUpgradeCollector', { pn: BEN, firmware: gone.code })).err).toBe(352);
    expect(
      await s.ctx.db
        .selectFrom('upgrade_tasks')
        .select('id')
        .where('firmware_id', 'in', [unsigned.id, forged.id, gone.id])
        .execute(),
    ).toEqual([]);

    // Bypassing the server's check: the simulated datalogger verifies and refuses to flash (code 6).
    const demo = demoFirmwareSigningKey();
    const key = 'bypass-forged';
    const cmds = s.ctx.services.commands;
    const begin = await cmds.send(BEN, 'upgrade_begin', {
      key,
      target: 0,
      firmware: forged.code,
      version: 'SWDL-5.0.1',
      size: forged.image.length,
      sha256: forged.sha256,
      signature: forged.signature,
      fingerprint: demo.fingerprint,
      chunk: forged.image.length,
      type: 0,
    });
    expect(begin).toMatchObject({ ok: true, result: { have: 0 } });
    const chunk = await cmds.send(BEN, 'upgrade_chunk', { key, offset: 0, data: forged.image.toString('base64') });
    expect(chunk.ok).toBe(true);
    const end = await cmds.send(BEN, 'upgrade_end', { key });
    expect(end.ok).toBe(false);
    expect(end.code).toBe(6);
    expect(end.error).toContain('bad signature');
    expect(logger(BEN).spec.firmware ?? '').not.toBe('SWDL-5.0.1');

    // A revoked key: its once-valid images are no longer distributed.
    const fine = await addFirmware({ version: 'SWDL-5.1.0' });
    await s.ctx.db
      .updateTable('firmware_signing_keys')
      .set({ revoked_at: Date.now() })
      .where('id', '=', keyId)
      .execute();
    try {
      expect((await call('sunmaker', 'firmwareUpgradeCollector', { pn: BEN, firmware: fine.code })).err).toBe(352);
    } finally {
      await s.ctx.db.updateTable('firmware_signing_keys').set({ revoked_at: null }).where('id', '=', keyId).execute();
    }
  });

  it('upgrades a device behind the datalogger (type and baud rate required) and shows its new version', async () => {
    const fw = await addFirmware({ version: 'INV-2.0.0', type: 2, baudRate: 9600, size: 20 * KB });
    await until('Anna connected', async () => s.ctx.services.telemetry.isConnected(ANNA) !== false);
    expect((await call('sunmaker', 'firmwareUpgradeDevice', { ...INV, firmware: fw.code, type: 2 })).err).toBe(7);
    expect((await call('sunmaker', 'firmwareUpgradeDevice', { ...INV, firmware: fw.code, baudRate: 9600 })).err).toBe(
      7,
    );
    expect((await call('sunmaker', 'firmwareUpgradeDevice', { ...INV, type: 2, baudRate: 9600 })).err).toBe(7);
    const r = await call<{ ret: number; key: string }>('sunmaker', 'firmwareUpgradeDevice', {
      ...INV,
      firmware: fw.code,
      type: 2,
      baudRate: 9600,
    });
    expect(r.dat!.ret).toBe(0);
    expect((await watch('sunmaker', ANNA, r.dat!.key)).status).toBe(3);
    const dev = await s.ctx.db
      .selectFrom('devices')
      .select('firmware')
      .where('pn', '=', ANNA)
      .where('sn', '=', INV.sn)
      .executeTakeFirstOrThrow();
    expect(dev.firmware).toBe('INV-2.0.0');
    expect(logger(ANNA).spec.devices.find((d) => d.sn === INV.sn)!.firmware).toBe('INV-2.0.0');
  });

  it('scopes: another tenant\u2019s datalogger answers 257, an owner only to the default firmware (11 otherwise)', async () => {
    const fw = await addFirmware({ version: 'SWDL-6.0.0', size: 10 * KB });
    expect((await call('owner_ben', 'firmwareUpgradeCollector', { pn: ANNA, firmware: fw.code })).err).toBe(257);
    expect((await call('owner_ben', 'queryCollectorFirmwareUpgradeStatus', { pn: ANNA })).err).toBe(257);
    expect((await call('dealer_north', 'firmwareUpgradeCollector', { pn: BEN, firmware: fw.code })).err).toBe(257);
    expect((await call('owner_anna', 'firmwareUpgradeCollector', { pn: ANNA, firmware: fw.code })).err).toBe(11);
    // The default firmware of her datalogger type: allowed, and offered.
    await s.ctx.db
      .insertInto('default_firmwares')
      .values({
        vendor_id: vendorId,
        datalogger_type: 'SW',
        firmware_id: fw.id,
        updated_by: vendorId,
        updated_at: Date.now(),
      })
      .execute();
    const offer = await call<{ item: Array<{ pn: string; offer: { firmware: { code: string } } | null }> }>(
      'owner_anna',
      'queryUpgradeableFirmware',
      {},
    );
    expect(offer.dat!.item.find((i) => i.pn === ANNA)!.offer!.firmware.code).toBe(fw.code);
    await until('Anna connected', async () => s.ctx.services.telemetry.isConnected(ANNA) !== false);
    const r = await call<{ ret: number; key: string }>('owner_anna', 'firmwareUpgradeCollector', {
      pn: ANNA,
      firmware: fw.code,
    });
    expect(r.dat!.ret).toBe(0);
    expect((await watch('owner_anna', ANNA, r.dat!.key)).status).toBe(3);
    // Her list shows only her tasks.
    const list = await call<{ total: number; task: Array<{ pn: string }> }>('owner_anna', 'queryFirmwareUpgrades', {
      pagesize: 50,
    });
    expect(list.err).toBe(0);
    expect(list.dat!.total).toBeGreaterThan(0);
    expect(list.dat!.task.every((t) => t.pn === ANNA)).toBe(true);
  });

  it(
    'batches by selection (the offline one waits and completes when it connects) and by filter',
    async () => {
      const fw = await addFirmware({ version: 'SWDL-7.0.0', size: 10 * KB });
      await until(
        'both connected',
        async () =>
          s.ctx.services.telemetry.isConnected(ANNA) !== false && s.ctx.services.telemetry.isConnected(BEN) !== false,
      );
      const b = await call<{ batch: number; total: number; started: number; waiting: number; refused: unknown[] }>(
        'sunmaker',
        'firmwareUpgradeBatch',
        {
          firmware: fw.code,
          pn: `${BEN},${BEN2}`,
        },
      );
      expect(b.err).toBe(0);
      expect(b.dat).toMatchObject({ total: 2, started: 1, waiting: 1, refused: [] });
      const tasks = await call<{ total: number; task: Array<{ pn: string; phase: string; status: number }> }>(
        'sunmaker',
        'queryFirmwareUpgrades',
        {
          batch: b.dat!.batch,
          pagesize: 10,
        },
      );
      expect(tasks.dat!.total).toBe(2);
      expect(tasks.dat!.task.find((t) => t.pn === BEN2)!.phase).toBe('waiting');
      // The offline datalogger connects: its waiting task starts and completes.
      late = startLiveFleet(s, [specs[2]!]);
      await until(
        'the batch done',
        async () => {
          const rows = await s.ctx.db
            .selectFrom('upgrade_tasks')
            .select('status')
            .where('batch_id', '=', b.dat!.batch)
            .execute();
          return rows.every((r) => Number(r.status) === 3);
        },
        40_000,
      );
      // both report it (the filter below selects by the version the dataloggers report)
      await until(
        'the new version on both',
        async () => (await firmwareOf(BEN2)) === 'SWDL-7.0.0' && (await firmwareOf(BEN)) === 'SWDL-7.0.0',
      );

      // By filter: every datalogger of the manufacturer running SWDL-7.0.0 (BEN and BEN2) → 8.0.0.
      const fw8 = await addFirmware({ version: 'SWDL-8.0.0', size: 10 * KB });
      await until(
        'both connected',
        async () =>
          s.ctx.services.telemetry.isConnected(BEN) !== false && s.ctx.services.telemetry.isConnected(BEN2) !== false,
      );
      const f = await call<{ batch: number; total: number; started: number; waiting: number }>(
        'sunmaker',
        'firmwareUpgradeBatch',
        {
          firmware: fw8.code,
          version: 'SWDL-7.0.0',
        },
      );
      expect(f.dat).toMatchObject({ total: 2 });
      const pns = (
        await s.ctx.db.selectFrom('upgrade_tasks').select('pn').where('batch_id', '=', f.dat!.batch).execute()
      )
        .map((r) => r.pn)
        .sort();
      expect(pns).toEqual([BEN, BEN2]);
    },
    60_000,
  );
  it('offers a suggested strategy in effect to its owner (datalogger and device), not outside its window nor another tenant\u2019s; taking it upgrades and records the result', async () => {
    const HOUR = 3_600_000;
    const now = s.ctx.now();
    const dl9 = await addFirmware({ version: 'SWDL-9.0.0', size: 10 * KB });
    const inv3 = await addFirmware({ version: 'INV-3.0.0', type: 2, baudRate: 9600, size: 10 * KB });
    const later = await addFirmware({ version: 'SWDL-10.0.0', size: 10 * KB });
    const other = await makeAccount(s, 'offermaker', ROLE.MANUFACTURER, 'operator', { vendorCode: 'OF' });
    let seq = 0;
    /** A strategy row as addUpgradeStrategy writes it, listing `devices` (sn '' = the datalogger). */
    async function strategy(o: {
      firmwareId: number;
      vendor?: number;
      from: number;
      to: number;
      reminder?: string;
      type?: number;
      devices: Array<{ pn: string; sn?: string; devcode?: number; devaddr?: number }>;
    }): Promise<{ id: number; code: string }> {
      const code = `ST20260101-${String(9000 + ++seq)}`;
      const row = await s.ctx.db
        .insertInto('upgrade_strategies')
        .values({
          code,
          vendor_id: o.vendor ?? vendorId,
          created_by: o.vendor ?? vendorId,
          name: `Offer ${seq}`,
          firmware_id: o.firmwareId,
          fw_type: o.type ?? 0,
          baud_rate: 9600,
          method: 1,
          starts_at: o.from,
          ends_at: o.to,
          reminder: o.reminder ?? '',
          cancelled_at: null,
          created_at: now + seq,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      for (const d of o.devices)
        await s.ctx.db
          .insertInto('upgrade_strategy_devices')
          .values({
            strategy_id: id,
            pn: d.pn,
            sn: d.sn ?? '',
            target: d.sn ? 1 : 0,
            devcode: d.devcode ?? null,
            devaddr: d.devaddr ?? null,
            updated_at: now,
          })
          .execute();
      return { id, code };
    }
    // Not yet in effect, expired, and another manufacturer's: never offered.
    await strategy({ firmwareId: later.id, from: now + HOUR, to: now + 2 * HOUR, devices: [{ pn: ANNA }] });
    await strategy({ firmwareId: later.id, from: now - 2 * HOUR, to: now - HOUR, devices: [{ pn: ANNA }] });
    await strategy({ firmwareId: later.id, vendor: other, from: now - HOUR, to: now + HOUR, devices: [{ pn: ANNA }] });
    const sdl = await strategy({
      firmwareId: dl9.id,
      from: now - HOUR,
      to: now + HOUR,
      reminder: 'Faster MPPT',
      devices: [{ pn: ANNA }, { pn: BEN }],
    });
    const sdev = await strategy({
      firmwareId: inv3.id,
      type: 2,
      from: now - HOUR,
      to: now + HOUR,
      reminder: 'Inverter fix',
      devices: [{ pn: ANNA, sn: INV.sn, devcode: INV.devcode, devaddr: INV.devaddr }],
    });

    type Offers = { total: number; item: UpgradeableRow[] };
    const mine = await call<Offers>('owner_anna', 'queryUpgradeableFirmware', {});
    expect(mine.err).toBe(0);
    expect(mine.dat!.item.some((i) => i.pn === BEN)).toBe(false);
    expect(mine.dat!.item.find((i) => i.pn === ANNA)!.offer).toMatchObject({
      from: 'strategy',
      strategy: sdl.code,
      reminder: 'Faster MPPT',
      firmware: { code: dl9.code, version: 'SWDL-9.0.0', type: 0 },
    });
    const rows = await call<Offers>('owner_anna', 'queryUpgradeableFirmware', { pn: ANNA });
    const devRow = rows.dat!.item.find((i) => i.target === 1 && i.sn === INV.sn)!;
    expect(devRow.offer).toMatchObject({
      from: 'strategy',
      strategy: sdev.code,
      reminder: 'Inverter fix',
      firmware: { code: inv3.code, type: 2, baudRate: 9600 },
    });
    // The other devices behind her datalogger are not listed by any strategy.
    expect(rows.dat!.item.filter((i) => i.target === 1 && i.sn !== INV.sn).every((i) => i.offer === null)).toBe(true);
    // Foreign: Ben's list has only his datalogger; Anna cannot see or take his.
    const bens = await call<Offers>('owner_ben', 'queryUpgradeableFirmware', {});
    expect(bens.dat!.item.some((i) => i.pn === ANNA)).toBe(false);
    expect((await call('owner_anna', 'queryUpgradeableFirmware', { pn: BEN })).err).toBe(257);
    expect((await call('owner_anna', 'firmwareUpgradeCollector', { pn: BEN, firmware: dl9.code })).err).toBe(257);
    // Outside the window or another tenant's strategy: not hers to take.
    expect((await call('owner_anna', 'firmwareUpgradeCollector', { pn: ANNA, firmware: later.code })).err).toBe(11);

    // Taking the datalogger's offer: a task of the strategy, the device row upgrading at once, then success.
    const rollout = new StrategyRollout({
      db: s.ctx.db,
      dbh: s.ctx.dbh,
      audit: s.ctx.services.audit,
      access: s.ctx.services.access,
      now: s.ctx.now,
      log: s.ctx.log,
      engine: s.ctx.services.upgradeEngine,
    });
    const devicesOf = async (code: string) =>
      (await call<StrategyDeviceListDat>('sunmaker', 'queryUpgradeStrategyDevices', { code, pagesize: 10 })).dat!
        .device;
    await until('Anna connected', async () => s.ctx.services.telemetry.isConnected(ANNA) !== false);
    const r = await call<{ ret: number; key: string }>('owner_anna', 'firmwareUpgradeCollector', {
      pn: ANNA,
      firmware: dl9.code,
    });
    expect(r.dat!.ret).toBe(0);
    expect((await taskRow(r.dat!.key)).strategy_id).toBe(sdl.id);
    expect((await devicesOf(sdl.code)).find((d) => d.pn === ANNA)).toMatchObject({ result: 1, key: r.dat!.key });
    expect((await watch('owner_anna', ANNA, r.dat!.key)).status).toBe(3);
    await rollout.runOnce();
    const after = await devicesOf(sdl.code);
    expect(after.find((d) => d.pn === ANNA)).toMatchObject({ result: 2, key: r.dat!.key });
    expect(after.find((d) => d.pn === BEN)).toMatchObject({ result: 0 });
    // Upgraded: the strategy is no longer offered to her datalogger.
    const again = await call<Offers>('owner_anna', 'queryUpgradeableFirmware', {});
    expect(again.dat!.item.find((i) => i.pn === ANNA)!.offer?.from).not.toBe('strategy');

    // The device's offer, taken the way the web's button does (firmware, type, baud rate of the offer).
    await until('Anna connected', async () => s.ctx.services.telemetry.isConnected(ANNA) !== false);
    const d = await call<{ ret: number; key: string }>('owner_anna', 'firmwareUpgradeDevice', {
      ...INV,
      firmware: inv3.code,
      type: 2,
      baudRate: 9600,
    });
    expect(d.dat!.ret).toBe(0);
    expect((await taskRow(d.dat!.key)).strategy_id).toBe(sdev.id);
    expect((await watch('owner_anna', ANNA, d.dat!.key)).status).toBe(3);
    await rollout.runOnce();
    expect(await devicesOf(sdev.code)).toEqual([expect.objectContaining({ sn: INV.sn, result: 2, key: d.dat!.key })]);
    const devAfter = await call<Offers>('owner_anna', 'queryUpgradeableFirmware', { pn: ANNA });
    expect(devAfter.dat!.item.find((i) => i.target === 1 && i.sn === INV.sn)!.offer).toBeNull();
  }, 60_000);
});
