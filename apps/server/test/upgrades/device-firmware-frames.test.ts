import {
  FIRMWARE_UPGRADE_STATUS,
  encodeUpgradeReason,
  getDefinition,
  upgradeReasonText,
  type AuthDat,
  type OperationLogRow,
  type UpgradeableRow,
} from '@sunwatch/protocol';
import {
  deviceFirmware,
  upgradeFlags,
  type LiveDatalogger,
  type LiveFleet,
} from '@sunwatch/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTelemetry } from '../../src/demo/seed-telemetry.js';
import type { IngestStore } from '../../src/modules/telemetry/ingest-store.js';
import { decodeSample } from '../../src/modules/telemetry/sample-codec.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import {
  accountId,
  addDemoSigningKey,
  liveFleetConfig,
  quietLogger,
  startLiveFleet,
  storeFirmware,
  until,
} from './fleet-helpers.js';

/**
 * Device firmware versions travel in the frames (issue 13): live simulated dataloggers over the
 * embedded MQTT broker report each device's running firmware (`fw`) and its version register; the
 * server keeps the device's version from them, so a device upgraded through its datalogger (or
 * flashed on site) shows its new version from its frames. And the operation history gives an
 * upgrade's outcome in the reader's language (the entry stores the reason code).
 */

const ANNA = 'SWNORTH0000001';
const INV = { pn: ANNA, devcode: 2341, devaddr: 1, sn: 'SW2341N0000101' };
const BMS = { pn: ANNA, devcode: 5123, devaddr: 2, sn: 'SW5123N0000102' };
type Session = { token: string; secret: string };
type Wire = Record<string, string | number>;
type Dev = typeof INV;

describe.each(engines)('device firmware from live frames, and translated upgrade history ($name)', (engine) => {
  let s: TestServer;
  let fleet: LiveFleet;
  let sunmaker: Session;
  let vendorId: number;
  let keyId: number;
  let real: IngestStore;
  /** Firmware versions the ingest path planned to write, per device SN (observed around the real store). */
  const reported: Array<{ id: number; fw: string }> = [];

  const call = async <T = Record<string, unknown>>(action: string, params: Wire = {}) =>
    s.call<T>(sunmaker, action, params);
  const logger = (): LiveDatalogger => fleet.loggers.find((l) => l.spec.pn === ANNA)!;
  const simDevice = (d: Dev) => logger().spec.devices.find((x) => x.sn === d.sn)!;
  const deviceRow = (d: Dev) =>
    s.ctx.db
      .selectFrom('devices')
      .select(['id', 'firmware'])
      .where('pn', '=', d.pn)
      .where('sn', '=', d.sn)
      .executeTakeFirstOrThrow();
  /** The version the server's device info (the upgrade tab's list) shows. */
  const infoVersion = async (d: Dev) => {
    const r = await call<{ item: UpgradeableRow[] }>('queryUpgradeableFirmware', { pn: ANNA, page: 0, pagesize: 50 });
    expect(r.err).toBe(0);
    return r.dat!.item.find((i) => i.target === 1 && i.sn === d.sn)?.version;
  };
  /** The newest stored sample of a device, decoded. */
  const latest = async (d: Dev) => {
    const { id } = await deviceRow(d);
    const row = await s.ctx.db
      .selectFrom('device_latest')
      .select(['ts', 'data'])
      .where('device_id', '=', id)
      .executeTakeFirst();
    return row ? { ts: Number(row.ts), values: decodeSample(getDefinition(d.devcode)!, row.data) } : undefined;
  };

  async function addFirmware(version: string, type: number): Promise<string> {
    return (await storeFirmware(s, { vendorId, keyId, version, type, size: 12 * 1024, baudRate: 9600 })).code;
  }

  async function upgradeDevice(d: Dev, code: string, type: number): Promise<number> {
    const r = await call<{ ret: number; key: string }>('firmwareUpgradeDevice', {
      ...d,
      firmware: code,
      type,
      baudRate: 9600,
    });
    expect(r.err).toBe(0);
    expect(r.dat!.ret).toBe(0);
    return until(`upgrade ${r.dat!.key} to end`, async () => {
      const p = await call<{ status: number }>('queryCollectorFirmwareUpgradeProgress', { pn: d.pn, key: r.dat!.key });
      return p.dat!.status !== FIRMWARE_UPGRADE_STATUS.running ? p.dat!.status : undefined;
    });
  }

  beforeAll(async () => {
    s = await startTestServer(engine, { config: liveFleetConfig() });
    real = s.ctx.services.telemetry.ingest.store;
    s.ctx.services.telemetry.ingest.store = {
      commit: (devs, rows, plan) =>
        real.commit(devs, rows, (inserted) => {
          const p = plan(inserted);
          for (const d of p.devices) if (d.firmware !== undefined) reported.push({ id: d.id, fw: d.firmware });
          return p;
        }),
    };
    const { fleet: spec } = await seedTelemetry(s);
    // A frame every 2 s of real time, so the test sees the next frames soon.
    fleet = startLiveFleet(s, [quietLogger(spec.dataloggers.find((d) => d.pn === ANNA)!, 2)]);
    const r = await s.login('sunmaker', 'Maker_2026');
    expect(r.err).toBe(0);
    sunmaker = { token: (r.dat as AuthDat).token, secret: (r.dat as AuthDat).secret };
    vendorId = await accountId(s, 'sunmaker');
    keyId = await addDemoSigningKey(s, vendorId);
    await until('Anna online and connected', async () => {
      const dl = await s.ctx.db.selectFrom('dataloggers').select('status').where('pn', '=', ANNA).executeTakeFirst();
      return dl?.status === 0 && s.ctx.services.telemetry.isConnected(ANNA) !== false;
    });
  }, 60_000);

  afterAll(async () => {
    await fleet?.stop();
    if (s && real) s.ctx.services.telemetry.ingest.store = real;
    await s?.stop();
  }, 30_000);

  it('the frames give each device its running version (the seed stored none), and its version register', async () => {
    for (const d of [INV, BMS]) {
      const fw = deviceFirmware(simDevice(d));
      await until(`${d.sn} at ${fw}`, async () => (await deviceRow(d)).firmware === fw);
      expect(await infoVersion(d)).toBe(fw);
    }
    expect(deviceFirmware(simDevice(INV))).toBe('V72.14');
    expect((await latest(INV))!.values.sy_main_cpu_version).toBe(7214);
    expect((await latest(BMS))!.values.sy_firmware_version).toBe(205);
  });

  it('a device flashed on site (no upgrade task) shows its new version from its next frames', async () => {
    simDevice(INV).firmware = 'V73.0.1';
    await until('the new version in the device info', async () => (await infoVersion(INV)) === 'V73.0.1');
    expect((await deviceRow(INV)).firmware).toBe('V73.0.1');
    await until('the register following it', async () => (await latest(INV))?.values.sy_main_cpu_version === 7301);
    // Repeated in every frame since, written once.
    const { id } = await deviceRow(INV);
    const n = (await latest(INV))!.ts;
    await until('two more frames', async () => ((await latest(INV))?.ts ?? 0) >= n + 4000);
    expect(reported.filter((r) => r.id === id && r.fw === 'V73.0.1')).toHaveLength(1);
  });

  it('a device upgraded through its datalogger reboots into the new version, which its frames then carry', async () => {
    const code = await addFirmware('BMS-2.1.0', 4);
    const { id } = await deviceRow(BMS);
    expect(await upgradeDevice(BMS, code, 4)).toBe(FIRMWARE_UPGRADE_STATUS.success);
    const ended = Date.now();
    expect(simDevice(BMS).firmware).toBe('BMS-2.1.0');
    // A frame sampled after the reboot: its fw and register carry the new version (the engine's own
    // write of the reported version came first, so the frame's is a no-op for the row).
    await until('a frame with the new version', async () => {
      const l = await latest(BMS);
      return l !== undefined && l.ts > ended && l.values.sy_firmware_version === 210;
    });
    expect(reported.some((r) => r.id === id && r.fw === 'BMS-2.1.0')).toBe(true);
    expect((await deviceRow(BMS)).firmware).toBe('BMS-2.1.0');
    expect(await infoVersion(BMS)).toBe('BMS-2.1.0');
  });

  it('the operation history gives a failed upgrade in the reader’s language; older English prose still shows', async () => {
    const code = await addFirmware('BMS-2.2.0', 4);
    upgradeFlags(logger()).failNext = true;
    expect(await upgradeDevice(BMS, code, 4)).toBe(FIRMWARE_UPGRADE_STATUS.failed);
    expect(simDevice(BMS).firmware).toBe('BMS-2.1.0');
    // An entry written before the reason codes (English prose), as the engine stored it then.
    await s.ctx.db
      .insertInto('operation_log')
      .values({
        ts: Date.now() - 60_000,
        account_id: vendorId,
        usr: 'sunmaker',
        action: 'firmwareUpgradeDevice',
        pn: ANNA,
        devcode: BMS.devcode,
        devaddr: BMS.devaddr,
        sn: BMS.sn,
        kind: 'upgrade',
        target: 'legacy',
        before: null,
        after: null,
        result: FIRMWARE_UPGRADE_STATUS.failed,
        detail: 'Flashing failed on the datalogger: old words',
      })
      .execute();
    const history = async (lang: string) => {
      const r = await call<{ log: OperationLogRow[] }>('webQueryOperationLog', {
        ...BMS,
        kind: 'upgrade',
        page: 0,
        pagesize: 20,
        lang,
      });
      expect(r.err).toBe(0);
      return r.dat!.log;
    };
    const stored = encodeUpgradeReason('flashFailed', 'flash write failed');
    const row = await s.ctx.db
      .selectFrom('operation_log')
      .select('detail')
      .where('sn', '=', BMS.sn)
      .where('kind', '=', 'upgrade')
      .where('result', '=', FIRMWARE_UPGRADE_STATUS.failed)
      .where('target', '<>', 'legacy')
      .executeTakeFirstOrThrow();
    expect(row.detail).toBe(stored);
    const fr = await history('fr_FR');
    const failed = fr.find((e) => e.result === FIRMWARE_UPGRADE_STATUS.failed && e.target !== 'legacy')!;
    expect(failed.detail).toBe("Le flashage a échoué sur l'enregistreur de données: flash write failed");
    expect(failed.detail).toBe(upgradeReasonText(stored, 'fr_FR'));
    expect(fr.find((e) => e.target === 'legacy')!.detail).toBe('Flashing failed on the datalogger: old words');
    const de = await history('de_DE');
    expect(de.find((e) => e.result === FIRMWARE_UPGRADE_STATUS.failed && e.target !== 'legacy')!.detail).toBe(
      'Das Flashen ist auf dem Datenlogger fehlgeschlagen: flash write failed',
    );
    const en = await history('en_US');
    expect(en.find((e) => e.result === FIRMWARE_UPGRADE_STATUS.failed && e.target !== 'legacy')!.detail).toBe(
      'Flashing failed on the datalogger: flash write failed',
    );
    // The success entry of the previous test has no reason.
    expect(en.find((e) => e.result === 0)!.detail).toBe('');
  });
});
