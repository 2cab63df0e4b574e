import type { IngestFrame } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { topicOf } from '../../src/ingest/topics.js';
import type { IngestStore, WritePlan } from '../../src/modules/telemetry/ingest-store.js';
import { engines, startTestServer, type TestServer } from '../harness.js';
import { connectDatalogger, createDatalogger, frame2341, type TestDatalogger } from '../factories/telemetry-ingest.js';

/**
 * Device firmware versions from ingest frames (issue 13): a device entry's optional `fw` becomes the
 * device's `firmware` when it differs from the stored one, in the batch's own transaction, and only
 * from the device's newest sample. An unchanged version plans no statement at all (the known version
 * is cached with the device row), so ingest throughput does not pay for it.
 */

const DAY0 = Date.UTC(2025, 5, 1, 8, 0, 0);
const STEP = 5 * 60_000;

describe.each(engines)('device firmware from ingest frames ($name)', (engine) => {
  let s: TestServer;
  let a: TestDatalogger;
  /** Every device entry of every plan that carried a firmware write (observed around the real store). */
  const planned: Array<WritePlan['devices'][number]> = [];
  let real: IngestStore;
  const ingest = () => s.ctx.services.telemetry.ingest;
  const metrics = () => s.ctx.services.telemetry.metrics;

  beforeAll(async () => {
    s = await startTestServer(engine, {
      config: { telemetry: { ...loadConfig({}).telemetry, mqttPort: 0, mqttHost: '127.0.0.1', jobsEnabled: false } },
    });
    a = await createDatalogger(s.ctx);
    real = ingest().store;
    ingest().store = {
      commit: (devs, rows, plan) =>
        real.commit(devs, rows, (inserted) => {
          const p = plan(inserted);
          planned.push(...p.devices.filter((d) => d.firmware !== undefined));
          return p;
        }),
    };
  });
  afterAll(async () => {
    if (s && real) ingest().store = real;
    await s?.stop();
  });

  const withFw = (f: IngestFrame, fw: string | undefined): IngestFrame => ({
    ...f,
    devices: f.devices.map((d) => (fw === undefined ? d : { ...d, fw })),
  });
  const firmwareOf = async (pn: string) =>
    (await s.ctx.db.selectFrom('devices').select('firmware').where('pn', '=', pn).executeTakeFirstOrThrow()).firmware;

  it('registers a device with the version of its first frame (over MQTT), in the same batch', async () => {
    const c = await connectDatalogger(s.mqtt!.port, a.pn, a.token);
    const before = metrics().deviceFirmwareUpdates;
    await c.publishAsync(topicOf(a.pn, 'data'), JSON.stringify(withFw(frame2341(a.pn, DAY0, 0), 'V1.0.0')), { qos: 1 });
    await c.endAsync();
    expect(await firmwareOf(a.pn)).toBe('V1.0.0');
    expect(metrics().deviceFirmwareUpdates).toBe(before + 1);
    expect(planned.map((d) => d.firmware)).toEqual(['V1.0.0']);
  });

  it('an unchanged version writes nothing: no statement planned, no row changed', async () => {
    const before = metrics().deviceFirmwareUpdates;
    const plannedBefore = planned.length;
    const storedBefore = metrics().samplesStored;
    const c = await connectDatalogger(s.mqtt!.port, a.pn, a.token);
    for (let i = 1; i <= 20; i++) {
      await c.publishAsync(
        topicOf(a.pn, 'data'),
        JSON.stringify(withFw(frame2341(a.pn, DAY0 + i * STEP, i), 'V1.0.0')),
        {
          qos: 1,
        },
      );
    }
    await c.endAsync();
    expect(metrics().samplesStored - storedBefore).toBe(20);
    expect(planned.length).toBe(plannedBefore);
    expect(metrics().deviceFirmwareUpdates).toBe(before);
    expect(await firmwareOf(a.pn)).toBe('V1.0.0');
  });

  it('a new version is written once; frames without fw (or with "") leave it as it is', async () => {
    const before = metrics().deviceFirmwareUpdates;
    const r = await ingest().submitData(a.pn, withFw(frame2341(a.pn, DAY0 + 21 * STEP, 21), 'V1.1.0'));
    expect(r).toMatchObject({ ok: true, stored: 1 });
    expect(await firmwareOf(a.pn)).toBe('V1.1.0');
    expect(metrics().deviceFirmwareUpdates).toBe(before + 1);
    await ingest().submitData(a.pn, withFw(frame2341(a.pn, DAY0 + 22 * STEP, 22), 'V1.1.0'));
    await ingest().submitData(a.pn, withFw(frame2341(a.pn, DAY0 + 23 * STEP, 23), undefined));
    await ingest().submitData(a.pn, withFw(frame2341(a.pn, DAY0 + 24 * STEP, 24), ''));
    expect(await firmwareOf(a.pn)).toBe('V1.1.0');
    expect(metrics().deviceFirmwareUpdates).toBe(before + 1);
  });

  it('an older (backfilled) sample never brings an old version back', async () => {
    const before = metrics().deviceFirmwareUpdates;
    const r = await ingest().submitData(a.pn, withFw(frame2341(a.pn, DAY0 - 10 * STEP, 99), 'V0.9.0'));
    expect(r).toMatchObject({ ok: true, stored: 1 });
    expect(await firmwareOf(a.pn)).toBe('V1.1.0');
    expect(metrics().deviceFirmwareUpdates).toBe(before);
    // The newest sample still decides: the next live frame with the running version is a no-op.
    await ingest().submitData(a.pn, withFw(frame2341(a.pn, DAY0 + 25 * STEP, 25), 'V1.1.0'));
    expect(await firmwareOf(a.pn)).toBe('V1.1.0');
  });

  it('a version changed behind the ingest path (upgrade engine) is seen once the cache expires', async () => {
    await s.ctx.db.updateTable('devices').set({ firmware: 'V2.0.0' }).where('pn', '=', a.pn).execute();
    ingest().invalidate(a.pn);
    const before = metrics().deviceFirmwareUpdates;
    const plannedBefore = planned.length;
    await ingest().submitData(a.pn, withFw(frame2341(a.pn, DAY0 + 26 * STEP, 26), 'V2.0.0'));
    expect(planned.length).toBe(plannedBefore);
    expect(metrics().deviceFirmwareUpdates).toBe(before);
    expect(await firmwareOf(a.pn)).toBe('V2.0.0');
  });

  it('refuses a version longer than 64 characters (the whole frame, like any schema error)', async () => {
    const r = await ingest().submitData(a.pn, withFw(frame2341(a.pn, DAY0 + 27 * STEP, 27), 'V'.repeat(65)));
    expect(r).toMatchObject({ ok: false, reason: 'schema' });
    expect(r.detail).toContain('fw');
    expect(await firmwareOf(a.pn)).toBe('V2.0.0');
  });
});
