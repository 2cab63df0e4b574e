import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AuthDat } from '@sunwatch/protocol';
import { demoFirmwareSigningKey, signFirmwareDigest } from '@sunwatch/protocol/node/firmware-keys.ts';
import {
  buildFleet,
  LiveFleet,
  MqttPublisher,
  simClock,
  type DataloggerSpec,
  type LiveDatalogger,
} from '@sunwatch/simulator';
import { loadConfig, type UpgradesConfig } from '../../src/config.js';
import type { AppConfig } from '../../src/config.js';
import { seedDemoFirmware } from '../../src/demo/seed-firmware.js';
import { provisionFleet } from '../../src/demo/seed-telemetry.js';
import { UpgradeEngineService, type UpgradeEngineOptions } from '../../src/modules/upgrades/upgrade-engine.js';
import { startTestServer, type Engine, type TestServer } from '../harness.js';

/**
 * A server with its embedded MQTT broker and `count` live simulated dataloggers of the demo
 * manufacturer (sunmaker, with the demo signing key), for the upgrade engine's fleet tests
 * (fleet-engine.test.ts, lease-takeover.test.ts).
 */

export const KB = 1024;

export async function until<T>(what: string, f: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface FleetServer {
  s: TestServer;
  fleet: LiveFleet;
  specs: DataloggerSpec[];
  pns: string[];
  maker: AuthDat;
  vendorId: number;
  keyId: number;
  logger(pn: string): LiveDatalogger;
  /** Stores a random image signed with the demo key and its firmware row. */
  addFirmware(version: string, size: number): Promise<{ id: number; code: string; blobKey: string; image: Buffer }>;
  /** A second engine on the same database, blob store, commands and telemetry (another "instance"). */
  engine(o: {
    instance: string;
    options?: Partial<UpgradeEngineOptions>;
    blobs?: TestServer['ctx']['blobs'];
    commands?: TestServer['ctx']['services']['commands'];
  }): UpgradeEngineService;
  online(pns: string[]): Promise<void>;
  stop(): Promise<void>;
}

export async function startFleetServer(
  engine: Engine,
  o: { count: number; prefix: string; upgrades?: Partial<UpgradesConfig> },
): Promise<FleetServer> {
  const upgrades: UpgradesConfig = {
    chunkBytes: 2 * KB,
    leaseMs: 5000,
    sweepMs: 200,
    flashTimeoutMs: 30_000,
    ...o.upgrades,
  };
  const config: Partial<AppConfig> = {
    telemetry: {
      ...loadConfig({}).telemetry,
      mqttPort: 0,
      mqttHost: '127.0.0.1',
      jobsEnabled: false,
      commandAckTimeoutMs: 1500,
    },
    upgrades,
  };
  const s = await startTestServer(engine, { config });
  await seedDemoFirmware(s);
  const provisioned = await provisionFleet(s, buildFleet({ count: o.count, prefix: o.prefix }));
  const specs = provisioned.dataloggers.map((d) => ({
    ...d,
    devices: d.devices.slice(0, 1),
    offlineRate: 0,
    warningRate: 0,
    faultRate: 0,
    collectInterval: 60,
    heartbeatInterval: 5,
  }));
  const fleet = new LiveFleet(specs, {
    clock: simClock(),
    tickMs: 100,
    offlineSpells: false,
    publisherFor: (d) => new MqttPublisher({ url: `mqtt://127.0.0.1:${s.mqtt!.port}`, pn: d.pn, token: d.token }),
  });
  fleet.start();
  const login = await s.login('sunmaker', 'Maker_2026');
  if (login.err !== 0) throw new Error(`login ${login.err}`);
  const vendorId = Number(
    (await s.ctx.db.selectFrom('accounts').select('id').where('usr', '=', 'sunmaker').executeTakeFirstOrThrow()).id,
  );
  const keyId = Number(
    (
      await s.ctx.db
        .selectFrom('firmware_signing_keys')
        .select('id')
        .where('fingerprint', '=', demoFirmwareSigningKey().fingerprint)
        .executeTakeFirstOrThrow()
    ).id,
  );
  const pns = specs.map((d) => d.pn);
  let n = 0;
  const online = async (which: string[]) => {
    await until(`${which.length} dataloggers online over MQTT`, async () => {
      const rows = await s.ctx.db.selectFrom('dataloggers').select(['pn', 'status']).where('pn', 'in', which).execute();
      return (
        rows.filter((x) => x.status === 0).length === which.length &&
        which.every((pn) => s.ctx.services.telemetry.isConnected(pn) !== false)
      );
    });
  };
  await online(pns);
  return {
    s,
    fleet,
    specs,
    pns,
    maker: login.dat as AuthDat,
    vendorId,
    keyId,
    logger: (pn) => fleet.loggers.find((l) => l.spec.pn === pn)!,
    async addFirmware(version, size) {
      const image = randomBytes(size);
      const blob = await s.ctx.blobs.put(Readable.from([image]));
      const signature = signFirmwareDigest(demoFirmwareSigningKey().privateKey, blob.sha256);
      const code = `FW${Date.now().toString(36).toUpperCase()}${++n}`;
      const row = await s.ctx.db
        .insertInto('firmwares')
        .values({
          code,
          vendor_id: vendorId,
          name: `Test ${version}`,
          version,
          type: 0,
          baud_rate: null,
          file_name: `${version}.bin`,
          size: blob.size,
          sha256: blob.sha256,
          signature,
          key_id: keyId,
          blob_key: blob.key,
          created_by: vendorId,
          created_at: Date.now(),
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: Number(row.id), code, blobKey: blob.key, image };
    },
    engine(e) {
      return new UpgradeEngineService({
        db: s.ctx.db,
        blobs: e.blobs ?? s.ctx.blobs,
        commands: e.commands ?? s.ctx.services.commands,
        telemetry: s.ctx.services.telemetry,
        operations: s.ctx.services.operations,
        now: s.ctx.now,
        log: s.ctx.log,
        instance: e.instance,
        options: { ...upgrades, ackTimeoutMs: 1500, ...e.options },
      });
    },
    online,
    async stop() {
      await fleet.stop();
      await s.stop();
    },
  };
}
