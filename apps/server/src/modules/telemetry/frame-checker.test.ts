import { describe, expect, it } from 'vitest';
import { getDefinition, type IngestDevice } from '@sunwatch/protocol';
import type { IngestLimitsConfig } from '../../config.js';
import type { DecodedDevice } from './device-decoder.js';
import { FrameChecker } from './frame-checker.js';
import type { DataloggerEntry } from './ingest.types.js';

/** FrameChecker with fake collaborators: no database, a pinned clock, a fake decoder. */

const NOW = Date.UTC(2026, 5, 15, 4, 0, 0);
const DAY = 86_400_000;
const REGISTERED = NOW - 100 * DAY;
const limits: IngestLimitsConfig = {
  maxPacketBytes: 4096,
  maxDevices: 3,
  maxValues: 16,
  maxDepth: 8,
  backfillDays: 30,
  maxFutureMs: 600_000,
};
const DL: DataloggerEntry = {
  id: 7,
  pn: 'PN1',
  tokenHash: null,
  projectId: null,
  tz: 0,
  createdAt: REGISTERED,
  expires: Number.MAX_SAFE_INTEGER,
};
const DEF = getDefinition(2341)!;

function checker(decode: (dev: IngestDevice) => DecodedDevice = fakeDecode) {
  const lookedUp: string[] = [];
  const dataloggers = {
    datalogger: (pn: string) => {
      lookedUp.push(pn);
      return Promise.resolve(pn === DL.pn ? DL : undefined);
    },
  };
  return { c: new FrameChecker(limits, dataloggers, decode, () => NOW), lookedUp };
}

function fakeDecode(dev: IngestDevice): DecodedDevice {
  const values = Object.fromEntries(Object.entries(dev.values ?? {}).map(([k, v]) => [k, Number(v)]));
  const n = Object.keys(values).length;
  if (n === 0) return { ok: false, reason: 'decode', detail: 'no values' };
  return { ok: true, device: { dev, def: DEF, values, data: new Uint8Array([n]), n } };
}

const dev = (sn: string, values: Record<string, number> = { a: 1 }) => ({ devcode: 2341, devaddr: 1, sn, values });
const frame = (over: Record<string, unknown> = {}) => ({ pn: DL.pn, ts: NOW - 60_000, devices: [dev('S1')], ...over });

describe('FrameChecker', () => {
  it('accepts a good frame (bytes or object) and returns the decoded devices', async () => {
    const { c } = checker();
    for (const payload of [JSON.stringify(frame()), Buffer.from(JSON.stringify(frame())), frame()]) {
      const r = await c.check('data', DL.pn, payload);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(r.dl).toBe(DL);
      expect(r.ts).toBe(NOW - 60_000);
      expect(r.devices.map((d) => [d.dev.sn, d.values, d.n])).toEqual([['S1', { a: 1 }, 1]]);
    }
  });

  it('refuses an unknown PN before parsing anything', async () => {
    const { c, lookedUp } = checker();
    const r = await c.check('data', 'NOPE', 'not even json');
    expect(r).toMatchObject({ ok: false, reason: 'unknown_pn' });
    expect(lookedUp).toEqual(['NOPE']);
  });

  it('checks the size and the shape limits before JSON.parse', async () => {
    const { c } = checker();
    expect(await c.check('data', DL.pn, 'x'.repeat(limits.maxPacketBytes + 1))).toMatchObject({
      ok: false,
      reason: 'too_large',
      dl: DL,
    });
    // Too deep: refused by the byte scan although it is not even valid JSON at the end.
    expect(await c.check('data', DL.pn, '['.repeat(20))).toMatchObject({ ok: false, reason: 'limits' });
    expect(await c.check('data', DL.pn, '{"pn":')).toMatchObject({ ok: false, reason: 'json' });
  });

  it('refuses schema errors, unknown keys, a foreign PN and too many devices', async () => {
    const { c } = checker();
    expect(await c.check('data', DL.pn, frame({ extra: 1 }))).toMatchObject({ reason: 'schema' });
    expect(await c.check('data', DL.pn, frame({ devices: [] }))).toMatchObject({ reason: 'schema' });
    expect(await c.check('data', DL.pn, frame({ devices: [{ ...dev('S1'), x: 1 }] }))).toMatchObject({
      reason: 'schema',
      detail: expect.stringMatching(/^devices\.0\./) as unknown,
    });
    expect(await c.check('data', DL.pn, frame({ pn: 'OTHER' }))).toMatchObject({ reason: 'pn_mismatch' });
    const four = [dev('A'), dev('B'), dev('C'), dev('D')];
    expect(await c.check('data', DL.pn, frame({ devices: four }))).toMatchObject({ reason: 'limits' });
    const many = Object.fromEntries(Array.from({ length: limits.maxValues + 1 }, (_, i) => [`v${i}`, i]));
    expect(await c.check('data', DL.pn, frame({ devices: [dev('A', many)] }))).toMatchObject({ reason: 'limits' });
  });

  it('keeps the timestamp window: registration − backfill days … now + max future', async () => {
    const { c } = checker();
    const oldest = REGISTERED - limits.backfillDays * DAY;
    expect((await c.check('data', DL.pn, frame({ ts: oldest }))).ok).toBe(true);
    expect(await c.check('data', DL.pn, frame({ ts: oldest - 1 }))).toMatchObject({ reason: 'timestamp' });
    expect((await c.check('data', DL.pn, frame({ ts: NOW + limits.maxFutureMs }))).ok).toBe(true);
    expect(await c.check('data', DL.pn, frame({ ts: NOW + limits.maxFutureMs + 1 }))).toMatchObject({
      reason: 'timestamp',
      detail: 'timestamp in the future',
    });
  });

  it('refuses the whole frame for one bad device entry, naming it', async () => {
    const { c } = checker();
    const r = await c.check('data', DL.pn, frame({ devices: [dev('A'), dev('B', {})] }));
    expect(r).toEqual({ ok: false, reason: 'decode', detail: 'devices.1: no values', dl: DL });
    expect(await c.check('data', DL.pn, frame({ devices: [dev('A'), dev('A')] }))).toMatchObject({
      reason: 'schema',
      detail: 'devices.1: device listed twice',
    });
    const unknown = checker(() => ({ ok: false, reason: 'unknown_devcode', detail: 'unknown devcode 9' })).c;
    expect(await unknown.check('data', DL.pn, frame())).toMatchObject({
      reason: 'unknown_devcode',
      detail: 'devices.0: unknown devcode 9',
    });
  });

  it('checks heartbeats by their own schema', async () => {
    const { c } = checker();
    const hb = { pn: DL.pn, ts: NOW, fw: '1.2', signal: 70 };
    expect(await c.check('heartbeat', DL.pn, hb)).toEqual({ ok: true, dl: DL, ts: NOW, heartbeat: hb, devices: [] });
    expect(await c.check('heartbeat', DL.pn, { ...hb, pn: 'X' })).toMatchObject({ reason: 'pn_mismatch' });
    expect(await c.check('heartbeat', DL.pn, { ...hb, signal: 101 })).toMatchObject({ reason: 'schema' });
  });
});
