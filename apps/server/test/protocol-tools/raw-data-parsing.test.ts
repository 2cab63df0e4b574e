import {
  ApiCallError,
  DEVICE_DEFINITIONS,
  encodeRegisters,
  type DeviceDefinition,
  type IngestFrame,
  type RawDeviceRow,
} from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { decodeSample } from '../../src/modules/telemetry/sample-codec.js';
import { syntheticValues } from '../../src/modules/telemetry/synthetic.js';
import { engines, startTestServer, type ApiClient, type TestServer } from '../harness.js';
import { createDatalogger, waitFor, type TestDatalogger } from '../factories/telemetry-ingest.js';

/**
 * Issue 14, rawDataParsing: for EVERY shipped devcode and every input form, the operator's parse
 * action shows exactly what ingestion stores for the same frame (the frame goes to both), and a
 * frame ingestion refuses is refused by the parse action for the same reason with the same detail.
 * The stored samples re-parsed (webQueryDeviceRawData) equal them too.
 */
const T0 = Date.UTC(2025, 5, 1, 8, 0, 0);
const STEP = 60_000;

describe.each(engines)('raw-data parsing equals ingestion ($name)', (engine) => {
  let s: TestServer;
  let op: ApiClient;
  let dl: TestDatalogger;
  let tick = 0;
  beforeAll(async () => {
    s = await startTestServer(engine, {
      config: { telemetry: { ...loadConfig({}).telemetry, mqttPort: 0, mqttHost: '127.0.0.1', jobsEnabled: false } },
    });
    const login = await s.login('operator', 'Operator_2026');
    expect(login.err).toBe(0);
    op = s.api(login.dat!);
    dl = await createDatalogger(s.ctx);
  });
  afterAll(async () => {
    await s?.stop();
  });

  const post = (frame: unknown) =>
    s.request<{ err: number; desc: string; detail?: string }>(`/ingest/v1/${dl.pn}/data`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${dl.token}` },
      body: JSON.stringify(frame),
    });

  /** Ingests the frame and answers what was stored for its one device (values by field id). */
  async function ingestOne(def: DeviceDefinition, frame: IngestFrame): Promise<Record<string, number>> {
    const r = await post(frame);
    expect(r.body, JSON.stringify(r.body)).toMatchObject({ err: 0 });
    const d = frame.devices[0]!;
    const row = await waitFor(async () => {
      const dev = await s.ctx.db
        .selectFrom('devices')
        .select('id')
        .where('pn', '=', frame.pn)
        .where('devcode', '=', d.devcode)
        .where('devaddr', '=', d.devaddr)
        .where('sn', '=', d.sn)
        .executeTakeFirst();
      if (!dev) return undefined;
      return s.ctx.db
        .selectFrom('samples')
        .select('data')
        .where('device_id', '=', dev.id)
        .where('ts', '=', frame.ts)
        .executeTakeFirst();
    });
    return decodeSample(def, row.data);
  }

  const valuesOf = (dev: RawDeviceRow) => Object.fromEntries(dev.fields.map((f) => [f.id, f.value]));

  it.each(DEVICE_DEFINITIONS.map((d) => [d.devcode, d] as const))(
    'devcode %i: frame, device entry, register blocks and bare hex decode as ingestion stores them',
    async (devcode, def) => {
      const sn = `RAW-${devcode}`;
      const values = syntheticValues(def, { phase: devcode % 7, energy: { generated: 12.3, used: 4.5, bought: 1.2 } });
      const blocks = encodeRegisters(def, values);
      const ts = () => T0 + ++tick * STEP;

      // 1. A whole frame with register blocks, exactly as a datalogger posts it.
      const frame: IngestFrame = { pn: dl.pn, ts: ts(), devices: [{ devcode, devaddr: 1, sn, registers: blocks }] };
      const stored = await ingestOne(def, frame);
      expect(Object.keys(stored).length).toBe(def.fields.length);
      const parsed = await op.call('parseRawData', { devcode, frame: JSON.stringify(frame) });
      expect(parsed.format).toBe('frame');
      expect(parsed.frameError).toBe('');
      expect(parsed.devices).toHaveLength(1);
      expect(parsed.devices[0]).toMatchObject({ devcode, devaddr: 1, sn, accepted: true, reason: '', name: def.name });
      expect(valuesOf(parsed.devices[0]!)).toEqual(stored);
      // Titles and units are the definition's; the register words are those sent.
      for (const f of parsed.devices[0]!.fields) {
        const fd = def.fields.find((x) => x.id === f.id)!;
        expect(f.title).toBe(fd.title);
        expect(f.unit).toBe(fd.unit ?? '');
        expect(f.address).toBe(fd.register.address);
      }
      expect(parsed.devices[0]!.registers).toEqual(blocks);

      // 2. A device entry with named values (another sample time).
      const named: IngestFrame = { pn: dl.pn, ts: ts(), devices: [{ devcode, devaddr: 1, sn, values }] };
      const storedNamed = await ingestOne(def, named);
      const entry = await op.call('parseRawData', { devcode, frame: JSON.stringify({ values }) });
      expect(entry.format).toBe('device');
      expect(entry.devices[0]!.accepted).toBe(true);
      expect(valuesOf(entry.devices[0]!)).toEqual(storedNamed);

      // 3. The register-block list alone and 4. the first block as bare hex (with spaces, as copied from a log).
      const first = blocks[0]!;
      const part: IngestFrame = { pn: dl.pn, ts: ts(), devices: [{ devcode, devaddr: 1, sn, registers: [first] }] };
      const storedPart = await ingestOne(def, part);
      const list = await op.call('parseRawData', { devcode, frame: JSON.stringify([first]) });
      expect(list.format).toBe('blocks');
      expect(valuesOf(list.devices[0]!)).toEqual(storedPart);
      const spaced = first.hex.match(/.{1,4}/g)!.join(' ');
      const hex = await op.call('parseRawData', { devcode, frame: spaced, start: first.start });
      expect(hex.format).toBe('hex');
      expect(hex.devices[0]!.accepted).toBe(true);
      expect(valuesOf(hex.devices[0]!)).toEqual(storedPart);

      // 5. The stored samples re-parsed: the same values, newest first.
      const history = await op.call('webQueryDeviceRawData', {
        pn: dl.pn,
        devcode,
        devaddr: 1,
        sn,
        from: frame.ts,
        to: part.ts,
        pagesize: 20,
      });
      expect(history.total).toBe(3);
      expect(history.rows.map((r) => r.ts)).toEqual([part.ts, named.ts, frame.ts]);
      expect(valuesOf(history.rows[0]!.device)).toEqual(storedPart);
      expect(valuesOf(history.rows[1]!.device)).toEqual(storedNamed);
      expect(valuesOf(history.rows[2]!.device)).toEqual(stored);
      expect(history.rows.every((r) => r.device.accepted)).toBe(true);
    },
  );

  it('a frame ingestion refuses is refused for the same reason and detail', async () => {
    const def = DEVICE_DEFINITIONS[0]!;
    const blocks = encodeRegisters(def, syntheticValues(def));
    const bad: IngestFrame[] = [
      // partial word
      {
        pn: dl.pn,
        ts: T0,
        devices: [{ devcode: def.devcode, devaddr: 1, sn: 'BAD1', registers: [{ start: 0, hex: '08F' }] }],
      },
      // unknown devcode
      { pn: dl.pn, ts: T0, devices: [{ devcode: 9999, devaddr: 1, sn: 'BAD2', registers: blocks }] },
      // a value the definition does not know
      { pn: dl.pn, ts: T0, devices: [{ devcode: def.devcode, devaddr: 1, sn: 'BAD3', values: { no_such_field: 1 } }] },
    ];
    for (const frame of bad) {
      const r = await post(frame);
      expect(r.status).toBe(400);
      const reason = /\((\w+)\)$/.exec(r.body.desc)![1];
      const parsed = await op.call('parseRawData', { devcode: def.devcode, frame: JSON.stringify(frame) });
      expect(parsed.devices[0]).toMatchObject({ accepted: false, reason, detail: r.body.detail });
      expect(parsed.devices[0]!.fields).toEqual([]);
    }
  });

  it('bare input that is not a frame answers 6; an unknown device 12', async () => {
    const err = (p: Promise<unknown>) =>
      p.then(
        () => 0,
        (e: unknown) => (e instanceof ApiCallError ? e.err : -1),
      );
    expect(await err(op.call('parseRawData', { devcode: 2341, frame: 'hello' }))).toBe(6);
    expect(await err(op.call('parseRawData', { devcode: 2341, frame: '{"x":1}' }))).toBe(6);
    expect(
      await err(op.call('webQueryDeviceRawData', { pn: dl.pn, devcode: 2341, devaddr: 9, sn: 'none', from: 0, to: 1 })),
    ).toBe(12);
    // A range longer than 3 days
    expect(
      await err(
        op.call('webQueryDeviceRawData', {
          pn: dl.pn,
          devcode: 2341,
          devaddr: 1,
          sn: 'x',
          from: 0,
          to: 4 * 86_400_000,
        }),
      ),
    ).toBe(6);
  });

  it('every protocol tool is operator-only: other roles get the permission error 11', async () => {
    for (const [usr, pwd] of [
      ['sunmaker', 'Maker_2026'],
      ['dealer_north', 'Dealer_2026'],
      ['group_east', 'Group_2026'],
      ['owner_anna', 'Owner_2026'],
      ['viewer_cara', 'Viewer_2026'],
    ] as const) {
      const login = await s.login(usr, pwd);
      expect(login.err).toBe(0);
      const session = login.dat!;
      const calls: Array<[string, Record<string, string | number>]> = [
        ['parseRawData', { devcode: 2341, frame: '08FC' }],
        ['webQueryDeviceRawData', { pn: dl.pn, devcode: 2341, devaddr: 1, sn: 'x', from: 0, to: 1 }],
        ['webQueryProtocolDefinitions', {}],
        ['webQueryProtocolFields', { devcode: 2341 }],
        ['webQueryProtocolControls', { devcode: 2341 }],
        ['webQueryProtocolFaults', { devcode: 2341 }],
        ['webQueryDeviceFunctions', {}],
        ['webQueryDataloggerTypeFunctions', {}],
      ];
      for (const [action, params] of calls) {
        const r = await s.call(session, action, params);
        expect(r.err, `${usr} ${action}`).toBe(11);
        expect(r.dat).toBeUndefined();
      }
    }
  });
});
