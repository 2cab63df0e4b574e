import { createHash, generateKeyPairSync } from 'node:crypto';
import type { Heartbeat, IngestFrame } from '@sunwatch/protocol';
import {
  demoFirmwareSigningKey,
  keyFingerprint,
  rawPublicKeyBase64,
  signFirmwareDigest,
} from '@sunwatch/protocol/node/firmware-keys.ts';
import { describe, expect, it } from 'vitest';
import { DataloggerSim } from '../datalogger.js';
import { buildFleet } from '../fleet.js';
import type { Command, Publisher } from '../protocol/publisher.js';
import { LiveDatalogger, simClock } from '../runtime.js';
import type { DataloggerSpec } from '../types.js';
import { upgradeFlags, upgradeHave, verifyImage } from './upgrade.js';

/** Records acks (and upgrade reports, which travel on the ack topic). */
class RecordingPublisher implements Publisher {
  connected = true;
  acks: Record<string, unknown>[] = [];
  heartbeats: Heartbeat[] = [];
  connect() {
    this.connected = true;
    return Promise.resolve();
  }
  publishFrame(_f: IngestFrame) {
    return Promise.resolve();
  }
  publishHeartbeat(h: Heartbeat) {
    this.heartbeats.push(h);
    return Promise.resolve();
  }
  onCommand() {}
  ack(b: Record<string, unknown>) {
    this.acks.push(b);
    return Promise.resolve();
  }
  close() {
    this.connected = false;
    return Promise.resolve();
  }
}

const fleet = buildFleet({ count: 1, seed: 3 });

function setup(trusted?: string[]) {
  const spec: DataloggerSpec = {
    ...structuredClone(fleet.dataloggers[0]!),
    offlineRate: 0,
    trustedFirmwareKeys: trusted,
  };
  const pub = new RecordingPublisher();
  const live = new LiveDatalogger(new DataloggerSim(spec), pub, { clock: simClock(), offlineSpells: false });
  let n = 0;
  const run = async (cmd: string, params: Record<string, unknown>) => {
    const id = `c${++n}`;
    await live.handleCommand({ id, cmd, params } as Command);
    return pub.acks.find((a) => a.id === id)!;
  };
  return { live, pub, run };
}

function image(size: number, signer = demoFirmwareSigningKey().privateKey) {
  const bytes = Buffer.from(Buffer.alloc(size, 7).map((b, i) => (b + i) & 0xff));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { bytes, sha256, signature: signFirmwareDigest(signer, sha256) };
}

const begin = (key: string, img: ReturnType<typeof image>, extra: Record<string, unknown> = {}) => ({
  key,
  target: 0,
  firmware: 'FW1',
  version: 'SWDL-9.0.0',
  size: img.bytes.length,
  sha256: img.sha256,
  signature: img.signature,
  fingerprint: demoFirmwareSigningKey().fingerprint,
  chunk: 1024,
  type: 0,
  ...extra,
});

const until = async (f: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!f()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('simulated datalogger: firmware upgrade', () => {
  it('verifies size, SHA-256 and a signature by a trusted key', () => {
    const img = image(3000);
    const demo = demoFirmwareSigningKey();
    const t = { size: 3000, sha256: img.sha256, signature: img.signature, fingerprint: demo.fingerprint };
    expect(verifyImage(img.bytes, t, [demo.publicKey])).toBeUndefined();
    expect(verifyImage(img.bytes.subarray(1), t, [demo.publicKey])).toContain('size');
    const other = generateKeyPairSync('ed25519').privateKey;
    const otherPub = rawPublicKeyBase64(other);
    expect(verifyImage(img.bytes, t, [otherPub])).toBe('signing key not trusted');
    const forged = image(3000, other);
    expect(verifyImage(forged.bytes, { ...t, signature: forged.signature }, [demo.publicKey])).toBe('bad signature');
    const tampered = Buffer.from(img.bytes);
    tampered[5] = tampered[5]! ^ 1;
    expect(verifyImage(tampered, t, [demo.publicKey])).toBe('sha256 mismatch');
    expect(keyFingerprint(otherPub)).not.toBe(demo.fingerprint);
  });

  it('receives chunks, resumes from `have`, flashes with progress and reboots into the new version', async () => {
    const { live, pub, run } = setup();
    const img = image(2500);
    expect(await run('upgrade_begin', begin('k1', img))).toMatchObject({ ok: true, result: { have: 0 } });
    expect(
      await run('upgrade_chunk', { key: 'k1', offset: 0, data: img.bytes.subarray(0, 1024).toString('base64') }),
    ).toMatchObject({
      ok: true,
      result: { have: 1024 },
    });
    // Out of step: refused with where it is.
    expect(await run('upgrade_chunk', { key: 'k1', offset: 0, data: 'AAAA' })).toMatchObject({
      ok: false,
      code: 6,
      result: { have: 1024 },
    });
    // A new begin of the same key (after a reconnect) answers the bytes it holds.
    expect(await run('upgrade_begin', begin('k1', img))).toMatchObject({ ok: true, result: { have: 1024 } });
    expect(upgradeHave(live, 'k1')).toBe(1024);
    await run('upgrade_chunk', { key: 'k1', offset: 1024, data: img.bytes.subarray(1024).toString('base64') });
    expect(await run('upgrade_end', { key: 'k1' })).toMatchObject({ ok: true });
    await until(() => pub.acks.some((a) => (a.upg as { status?: number } | undefined)?.status === 3));
    const reports = pub.acks.filter((a) => a.upg).map((a) => a.upg as { progress: number; status: number });
    expect(reports.map((r) => r.progress)).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    expect(live.spec.firmware).toBe('SWDL-9.0.0');
    expect(live.sim.heartbeat(Date.now(), 1).fw).toBe('SWDL-9.0.0');
  });

  it('refuses to flash a mis-signed image and fails on request', async () => {
    const { live, pub, run } = setup();
    const forged = image(800, generateKeyPairSync('ed25519').privateKey);
    await run('upgrade_begin', begin('bad', forged));
    await run('upgrade_chunk', { key: 'bad', offset: 0, data: forged.bytes.toString('base64') });
    expect(await run('upgrade_end', { key: 'bad' })).toMatchObject({
      ok: false,
      code: 6,
      error: 'image refused: bad signature',
    });
    const before = live.spec.firmware;
    upgradeFlags(live).failNext = true;
    const img = image(800);
    await run('upgrade_begin', begin('f1', img));
    await run('upgrade_chunk', { key: 'f1', offset: 0, data: img.bytes.toString('base64') });
    expect(await run('upgrade_end', { key: 'f1' })).toMatchObject({ ok: true });
    await until(() => pub.acks.some((a) => (a.upg as { status?: number } | undefined)?.status === 2));
    expect(live.spec.firmware).toBe(before);
    expect(upgradeFlags(live).failNext).toBe(false);
  });

  it('trusts only its provisioned keys when it has some', async () => {
    const own = generateKeyPairSync('ed25519').privateKey;
    const { run } = setup([rawPublicKeyBase64(own)]);
    const img = image(500); // signed by the demo key, which this datalogger does not trust
    await run('upgrade_begin', begin('d1', img));
    await run('upgrade_chunk', { key: 'd1', offset: 0, data: img.bytes.toString('base64') });
    expect(await run('upgrade_end', { key: 'd1' })).toMatchObject({
      ok: false,
      code: 6,
      error: 'image refused: signing key not trusted',
    });
  });

  it('forgets a cancelled transfer', async () => {
    const { live, run } = setup();
    const img = image(2000);
    await run('upgrade_begin', begin('c1', img));
    await run('upgrade_chunk', { key: 'c1', offset: 0, data: img.bytes.subarray(0, 1000).toString('base64') });
    expect(await run('upgrade_cancel', { key: 'c1' })).toMatchObject({ ok: true });
    expect(upgradeHave(live, 'c1')).toBe(0);
    expect(await run('upgrade_end', { key: 'c1' })).toMatchObject({ ok: false, code: 1 });
  });
});
