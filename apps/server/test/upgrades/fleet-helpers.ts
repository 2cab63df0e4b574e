import { generateKeyPairSync, randomBytes } from 'node:crypto';
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
 * Set-up shared by the upgrade tests that run live simulated dataloggers over the embedded MQTT
 * broker: the server configuration, a quiet datalogger, firmware rows with stored images, the demo
 * signing key; and `startFleetServer`, a whole fleet of the demo manufacturer (sunmaker, with the
 * demo signing key) for the engine's fleet tests (fleet-engine.test.ts, lease-takeover.test.ts).
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

/** The server of a live-fleet test: the embedded broker on a free port, no background jobs, small chunks. */
export function liveFleetConfig(upgrades: Partial<UpgradesConfig> = {}): Partial<AppConfig> & { upgrades: UpgradesConfig } {
  return {
    telemetry: {
      ...loadConfig({}).telemetry,
      mqttPort: 0,
      mqttHost: '127.0.0.1',
      jobsEnabled: false,
      commandAckTimeoutMs: 1500,
    },
    upgrades: { chunkBytes: 2 * KB, leaseMs: 5000, sweepMs: 200, flashTimeoutMs: 30_000, ...upgrades },
  };
}

/** A datalogger that never goes offline or raises alarms, a frame every `collectInterval` s. */
export function quietLogger(spec: DataloggerSpec, collectInterval = 60): DataloggerSpec {
  return {
    ...structuredClone(spec),
    offlineRate: 0,
    warningRate: 0,
    faultRate: 0,
    collectInterval,
    heartbeatInterval: 5,
  };
}

/** Live simulated dataloggers publishing to the server's embedded broker (started). */
export function startLiveFleet(s: TestServer, specs: DataloggerSpec[]): LiveFleet {
  const fleet = new LiveFleet(specs, {
    clock: simClock(),
    tickMs: 100,
    offlineSpells: false,
    publisherFor: (d) => new MqttPublisher({ url: `mqtt://127.0.0.1:${s.mqtt!.port}`, pn: d.pn, token: d.token }),
  });
  fleet.start();
  return fleet;
}

/** The account id of `usr`. */
export async function accountId(s: TestServer, usr: string): Promise<number> {
  return Number((await s.ctx.db.selectFrom('accounts').select('id').where('usr', '=', usr).executeTakeFirstOrThrow()).id);
}

/** Registers the demo signing key for `vendorId`; its key id. */
export async function addDemoSigningKey(s: TestServer, vendorId: number): Promise<number> {
  const demo = demoFirmwareSigningKey();
  const row = await s.ctx.db
    .insertInto('firmware_signing_keys')
    .values({
      vendor_id: vendorId,
      name: 'demo',
      public_key: demo.publicKey,
      fingerprint: demo.fingerprint,
      created_by: vendorId,
      created_at: Date.now(),
      revoked_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

let firmwareSeq = 0;

/**
 * Stores a random image in the blob store and its firmware row of `vendorId`, signed by the demo
 * key (`keyId`) unless told: `forged` signs with another key, `none` leaves it unsigned.
 */
export async function storeFirmware(
  s: TestServer,
  o: {
    vendorId: number;
    keyId: number;
    version: string;
    type?: number;
    size?: number;
    baudRate?: number | null;
    sign?: 'demo' | 'forged' | 'none';
  },
): Promise<{ id: number; code: string; blobKey: string; image: Buffer; sha256: string; signature: string }> {
  const image = randomBytes(o.size ?? 40 * KB);
  const blob = await s.ctx.blobs.put(Readable.from([image]));
  const signature =
    o.sign === 'none'
      ? ''
      : signFirmwareDigest(
          o.sign === 'forged' ? generateKeyPairSync('ed25519').privateKey : demoFirmwareSigningKey().privateKey,
          blob.sha256,
        );
  const code = `FW${Date.now().toString(36).toUpperCase()}${++firmwareSeq}`;
  const row = await s.ctx.db
    .insertInto('firmwares')
    .values({
      code,
      vendor_id: o.vendorId,
      name: `Test ${o.version}`,
      version: o.version,
      type: o.type ?? 0,
      baud_rate: o.baudRate ?? null,
      file_name: `${o.version}.bin`,
      size: blob.size,
      sha256: blob.sha256,
      signature,
      key_id: signature ? o.keyId : null,
      blob_key: blob.key,
      created_by: o.vendorId,
      created_at: Date.now(),
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), code, blobKey: blob.key, image, sha256: blob.sha256, signature };
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
  const config = liveFleetConfig(o.upgrades);
  const upgrades = config.upgrades;
  const s = await startTestServer(engine, { config });
  await seedDemoFirmware(s);
  const provisioned = await provisionFleet(s, buildFleet({ count: o.count, prefix: o.prefix }));
  const specs = provisioned.dataloggers.map((d) => quietLogger({ ...d, devices: d.devices.slice(0, 1) }));
  const fleet = startLiveFleet(s, specs);
  const login = await s.login('sunmaker', 'Maker_2026');
  if (login.err !== 0) throw new Error(`login ${login.err}`);
  const vendorId = await accountId(s, 'sunmaker');
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
      const fw = await storeFirmware(s, { vendorId, keyId, version, size });
      return { id: fw.id, code: fw.code, blobKey: fw.blobKey, image: fw.image };
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
