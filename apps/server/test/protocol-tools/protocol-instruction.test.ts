import {
  DEVICE_DEFINITIONS,
  FIRMWARE_TYPES,
  controlItems,
  getDefinition,
  translateDeviceText,
} from '@sunwatch/protocol';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestServer, type ApiClient, type TestServer } from '../harness.js';
import { createDatalogger } from '../factories/telemetry-ingest.js';

/**
 * Issue 14, protocolInstruction and deviceFunction: the definitions of packages/protocol browsable
 * (server-paged and filtered), and the functions of devcodes and datalogger types derived from the
 * definitions, the firmware types, the command protocol and the fleet.
 */
describe.each(engines)('protocol instruction and device functions ($name)', (engine) => {
  let s: TestServer;
  let op: ApiClient;
  beforeAll(async () => {
    s = await startTestServer(engine);
    const login = await s.login('operator', 'Operator_2026');
    expect(login.err).toBe(0);
    op = s.api(login.dat!);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('lists every shipped definition, paged and filtered', async () => {
    const all = await op.call('webQueryProtocolDefinitions', { pagesize: 50 });
    expect(all.total).toBe(DEVICE_DEFINITIONS.length);
    expect(all.rows.map((r) => r.devcode)).toEqual([...DEVICE_DEFINITIONS].map((d) => d.devcode).sort((a, b) => a - b));
    const d2341 = all.rows.find((r) => r.devcode === 2341)!;
    const def = getDefinition(2341)!;
    expect(d2341).toMatchObject({
      name: def.name,
      fields: def.fields.length,
      controls: def.controls.length,
      faults: def.faults.length,
    });
    const p2 = await op.call('webQueryProtocolDefinitions', { page: 1, pagesize: 3 });
    expect(p2.total).toBe(DEVICE_DEFINITIONS.length);
    expect(p2.rows.map((r) => r.devcode)).toEqual(all.rows.slice(3, 6).map((r) => r.devcode));
    const meters = await op.call('webQueryProtocolDefinitions', { kind: 'meter' });
    expect(meters.rows.every((r) => r.kind === 'meter')).toBe(true);
    expect(meters.total).toBe(DEVICE_DEFINITIONS.filter((d) => d.kind === 'meter').length);
    const q = await op.call('webQueryProtocolDefinitions', { q: '5123' });
    expect(q.rows.map((r) => r.devcode)).toEqual([5123]);
  });

  it('browses fields, control fields and alarm codes of a devcode, in the call language', async () => {
    const def = getDefinition(2341)!;
    const fields = await op.call('webQueryProtocolFields', { devcode: 2341, pagesize: 50 });
    expect(fields.total).toBe(def.fields.length);
    expect(fields.rows[0]).toMatchObject({
      id: def.fields[0]!.id,
      title: def.fields[0]!.title,
      address: def.fields[0]!.register.address,
      scale: def.fields[0]!.scale,
    });
    const grid = await op.call('webQueryProtocolFields', { devcode: 2341, group: 'gd_', pagesize: 50 });
    expect(grid.total).toBe(def.fields.filter((f) => f.group === 'gd_').length);
    const enumField = def.fields.find((f) => f.enum)!;
    const one = await op.call('webQueryProtocolFields', { devcode: 2341, q: enumField.id, i18n: 'de_DE' });
    const row = one.rows.find((r) => r.id === enumField.id)!;
    const [key, label] = Object.entries(enumField.enum!)[0]!;
    expect(row.states[0]).toEqual({ key, label: translateDeviceText(label, undefined, 'de_DE') });
    expect(row.title).toBe(translateDeviceText(enumField.title, undefined, 'de_DE'));

    const controls = await op.call('webQueryProtocolControls', { devcode: 2341, pagesize: 50 });
    expect(controls.total).toBe(def.controls.length);
    const c0 = def.controls[0]!;
    expect(controls.rows[0]).toMatchObject({
      id: c0.id,
      name: c0.name,
      address: c0.register.address,
      items: controlItems(c0)?.length ?? 0,
    });

    const faults = await op.call('webQueryProtocolFaults', { devcode: 2341, pagesize: 50 });
    expect(faults.total).toBe(def.faults.length);
    const f0 = def.faults[0]!;
    const byCode = await op.call('webQueryProtocolFaults', { devcode: 2341, q: String(f0.code) });
    expect(byCode.rows[0]).toMatchObject({ code: f0.code, level: f0.level, description: f0.description });

    const missing = await s.call((await s.login('operator', 'Operator_2026')).dat!, 'webQueryProtocolFields', {
      devcode: 4242,
    });
    expect(missing.err).toBe(12);
  });

  it('device functions follow the definitions and the fleet', async () => {
    const r = await op.call('webQueryDeviceFunctions', { pagesize: 50 });
    expect(r.total).toBe(DEVICE_DEFINITIONS.length);
    const counts = await sql<{
      devcode: number;
      n: number | string;
    }>`select devcode, count(*) as n from devices group by devcode`.execute(s.ctx.db);
    for (const row of r.rows) {
      const def = getDefinition(row.devcode)!;
      expect(row.controls.count).toBe(def.controls.length);
      expect(row.controls.ids).toEqual(def.controls.map((c) => c.id));
      expect(row.controls.readback).toBe(def.controls.filter((c) => c.readback).length);
      expect(row.upgrade.firmwareTypes).toEqual(FIRMWARE_TYPES.filter((t) => t.target === 1).map((t) => t.key));
      expect(row.acceleration.parameters).toBe(def.fields.filter((f) => !f.internal).length);
      expect(row.devices).toBe(Number(counts.rows.find((c) => Number(c.devcode) === row.devcode)?.n ?? 0));
    }
    // a devcode without controls offers none (the environment monitor)
    expect(r.rows.find((x) => x.devcode === 5125)!.controls.count).toBe(getDefinition(5125)!.controls.length);
  });

  it('datalogger type functions come from the fleet: Wi-Fi types offer acceleration, cellular ones a flow card', async () => {
    const wifi = await createDatalogger(s.ctx, { withPlant: false });
    const cell = await createDatalogger(s.ctx, { withPlant: false });
    await s.ctx.db
      .updateTable('dataloggers')
      .set({ type_code: 'W', comm_method: 'WiFi', model: 'SW-DLW' })
      .where('id', '=', wifi.id)
      .execute();
    await s.ctx.db
      .updateTable('dataloggers')
      .set({ type_code: 'G', comm_method: '4G', model: 'SW-DL4' })
      .where('id', '=', cell.id)
      .execute();
    const w = await op.call('webQueryDataloggerTypeFunctions', { q: 'w' });
    expect(w.total).toBe(1);
    expect(w.rows[0]).toMatchObject({
      typeCode: 'W',
      dataloggers: 1,
      commMethods: ['WiFi'],
      models: ['SW-DLW'],
      acceleration: true,
      flowCard: false,
      debug: true,
    });
    expect(w.rows[0]!.upgrade.firmwareTypes).toEqual(FIRMWARE_TYPES.filter((t) => t.target === 0).map((t) => t.key));
    expect(w.rows[0]!.commands).toContain('reboot');
    expect(w.rows[0]!.commands).not.toContain('upgrade_chunk');
    const g = await op.call('webQueryDataloggerTypeFunctions', { q: 'G' });
    expect(g.rows[0]).toMatchObject({ typeCode: 'G', acceleration: false, flowCard: true });
    const all = await op.call('webQueryDataloggerTypeFunctions', { pagesize: 50 });
    expect(all.rows.map((x) => x.typeCode)).toEqual(expect.arrayContaining(['G', 'W']));
    expect(all.total).toBe(all.rows.length);
  });
});
