import type { Heartbeat, IngestFrame } from '@sunwatch/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataloggerSim } from '../datalogger.js';
import { buildFleet } from '../fleet.js';
import type { Command, Publisher } from '../protocol/publisher.js';
import { LiveDatalogger, simClock } from '../runtime.js';
import type { DataloggerSpec } from '../types.js';
import { crc16Modbus, debugReply, registerValue } from './datalogger.js';

/** Records what reaches the "server"; commands are delivered with `send`. */
class FakePublisher implements Publisher {
  connected = false;
  connects = 0;
  frames: IngestFrame[] = [];
  heartbeats: Heartbeat[] = [];
  acks: Record<string, unknown>[] = [];
  handlers: ((c: Command) => void)[] = [];
  connect() {
    this.connected = true;
    this.connects += 1;
    return Promise.resolve();
  }
  publishFrame(f: IngestFrame) {
    if (!this.connected) return Promise.reject(new Error('down'));
    this.frames.push(structuredClone(f));
    return Promise.resolve();
  }
  publishHeartbeat(h: Heartbeat) {
    this.heartbeats.push(h);
    return Promise.resolve();
  }
  onCommand(h: (c: Command) => void) {
    this.handlers.push(h);
  }
  ack(b: Record<string, unknown>) {
    this.acks.push(b);
    return Promise.resolve();
  }
  close() {
    this.connected = false;
    return Promise.resolve();
  }
}

const T0 = Date.UTC(2026, 2, 10, 12);
const fleet = buildFleet({ count: 4, seed: 7 });

function setup() {
  let now = T0;
  const clock = simClock({ wall: () => now });
  const spec: DataloggerSpec = {
    ...structuredClone(fleet.dataloggers[0]!),
    offlineRate: 0,
    collectInterval: 60,
    heartbeatInterval: 60,
  };
  const pub = new FakePublisher();
  const live = new LiveDatalogger(new DataloggerSim(spec), pub, { clock, offlineSpells: false });
  const run = async (cmd: Command) => {
    await live.handleCommand(cmd);
    return pub.acks.at(-1)!;
  };
  return {
    spec,
    pub,
    live,
    run,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('datalogger commands (simulator)', () => {
  it('reboot: acks with the delay, drops the link, buffers frames, comes back after the delay with a fresh uptime', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const t = setup();
    t.advance(60_000);
    await t.live.tick();
    expect(t.pub.connected).toBe(true);
    const sentBefore = t.pub.frames.length;
    t.advance(3_600_000); // an hour of uptime
    await t.live.tick();
    expect(t.pub.heartbeats.at(-1)!.uptime).toBeGreaterThanOrEqual(3600);

    const ack = await t.run({ id: 'r1', cmd: 'reboot', ts: 0, params: { delay_s: 2 } });
    expect(ack).toMatchObject({ id: 'r1', ok: true, result: { delay_s: 2 } });
    expect(t.pub.connected).toBe(false);
    expect(t.live.offline).toBe(true);
    // Down: frames sampled meanwhile wait in the buffer.
    const framesBefore = t.pub.frames.length;
    t.advance(120_000);
    await t.live.tick();
    expect(t.pub.frames).toHaveLength(framesBefore);
    expect(t.live.buffer.length).toBeGreaterThanOrEqual(2);
    // Back after the delay: reconnects, resends the buffer, uptime restarts.
    const bootAt = T0 + 60_000 + 3_600_000 + 120_000;
    await vi.advanceTimersByTimeAsync(2000);
    await t.live.tick();
    expect(t.live.offline).toBe(false);
    expect(t.pub.connected).toBe(true);
    expect(t.pub.connects).toBe(2);
    expect(t.live.buffer).toHaveLength(0);
    expect(t.pub.frames.length).toBeGreaterThan(sentBefore + 2);
    expect(t.live.bootedAt).toBe(bootAt);
    expect(t.pub.heartbeats.at(-1)!.uptime).toBe(0);
  });

  it('reset: acks, forgets buffered frames, restarts its sequence, registers again after the delay', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const t = setup();
    for (let i = 0; i < 3; i++) {
      t.advance(60_000);
      await t.live.tick();
    }
    expect(t.pub.frames.at(-1)!.seq).toBeGreaterThanOrEqual(3);
    await t.live.goOffline();
    t.advance(120_000);
    await t.live.tick();
    expect(t.live.buffer.length).toBeGreaterThan(0);
    t.live.goOnline();
    const ack = await t.run({ id: 'x', cmd: 'reset', ts: 0, params: { delay_s: 1 } });
    expect(ack).toMatchObject({ id: 'x', ok: true });
    expect(t.live.buffer).toHaveLength(0); // forgotten, never sent
    const sent = t.pub.frames.length;
    await vi.advanceTimersByTimeAsync(1000);
    t.advance(60_000);
    await t.live.tick();
    expect(t.pub.frames.length).toBe(sent + 1);
    expect(t.pub.frames.at(-1)!.seq).toBe(1);
  });

  it('unbind acks', async () => {
    const t = setup();
    expect(await t.run({ id: 'u', cmd: 'unbind', ts: 0, params: {} })).toMatchObject({ id: 'u', ok: true });
  });

  it('debug: a register read answered Modbus style with a valid CRC; other bytes echoed; no device → code 1; bad input → 6', async () => {
    const t = setup();
    const dev = t.spec.devices[0]!;
    const ack = await t.run({
      id: 'd',
      cmd: 'debug',
      ts: 0,
      params: { addr: dev.devaddr, step: 2, hex: '03 00 10 00 02' },
    });
    expect(ack.ok).toBe(true);
    const v0 = registerValue(dev.devcode, 0x10, 2);
    const v1 = registerValue(dev.devcode, 0x11, 2);
    const body = [dev.devaddr, 0x03, 4, v0 >> 8, v0 & 0xff, v1 >> 8, v1 & 0xff];
    const crc = crc16Modbus(body);
    const want = [...body, crc & 0xff, crc >> 8].map((b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
    expect((ack.result as { hex: string }).hex).toBe(want);
    // Deterministic: the same request, the same answer.
    expect(
      (await t.run({ id: 'd2', cmd: 'debug', ts: 0, params: { addr: dev.devaddr, step: 2, hex: '03 00 10 00 02' } }))
        .result,
    ).toEqual(ack.result);
    const echo = await t.run({ id: 'e', cmd: 'debug', ts: 0, params: { addr: dev.devaddr, step: 0, hex: 'aa bb cc' } });
    expect(
      (echo.result as { hex: string }).hex.startsWith(
        `${dev.devaddr.toString(16).toUpperCase().padStart(2, '0')} AA BB CC`,
      ),
    ).toBe(true);
    const none = await t.run({ id: 'n', cmd: 'debug', ts: 0, params: { addr: 250, step: 0, hex: 'AA' } });
    expect(none).toMatchObject({ ok: false, code: 1 });
    expect(
      await t.run({ id: 'b', cmd: 'debug', ts: 0, params: { addr: dev.devaddr, step: 0, hex: 'XYZ' } }),
    ).toMatchObject({
      ok: false,
      code: 6,
    });
    expect(
      await t.run({ id: 's', cmd: 'debug', ts: 0, params: { addr: dev.devaddr, step: -1, hex: 'AA' } }),
    ).toMatchObject({
      ok: false,
      code: 6,
    });
  });

  it('CRC-16/MODBUS matches the reference vector', () => {
    // 01 03 00 00 00 0A → CRC C5CD (sent CD C5)
    expect(crc16Modbus([0x01, 0x03, 0x00, 0x00, 0x00, 0x0a])).toBe(0xcdc5);
    expect(debugReply(1, 0, 0, [0x06, 0x00, 0x01])).toHaveLength(6);
  });
});
