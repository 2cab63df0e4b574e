import ExcelJS from 'exceljs';
import { getDefinition, type AuthDat } from '@sunwatch/protocol';
import { LiveFleet, MqttPublisher, simClock, type DataloggerSpec } from '@sunwatch/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { seedTelemetry } from '../../src/demo/seed-telemetry.js';
import { decodeSample } from '../../src/modules/telemetry/sample-codec.js';
import { localDay } from '../../src/shared/local-time.js';
import { engines, startTestServer, type TestServer } from '../harness.js';

/**
 * Device operations end to end (issue 10): the server sends commands over the embedded MQTT
 * broker to a live simulated datalogger (Anna's SWNORTH0000001: 2341 hybrid inverter + 5123
 * battery), which answers and changes its behaviour; its next frames come back through ingestion.
 */

const PN = 'SWNORTH0000001';
const INV = { pn: PN, devcode: 2341, devaddr: 1, sn: 'SW2341N0000101' };
const BAT = { pn: PN, devcode: 5123, devaddr: 2, sn: 'SW5123N0000102' };
const DAY = 86_400_000;
const TZ = 3600;

async function until<T>(what: string, f: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

type Session = { token: string; secret: string };

describe.each(engines)('device operations against a live simulated datalogger ($name)', (engine) => {
  let s: TestServer;
  let fleet: LiveFleet;
  const sessions: Record<string, Session> = {};
  let simStart: number;

  const call = async <T = unknown>(who: string, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions[who]!, action, params);

  /** The decoded samples of a device stored after `since` (sim time), oldest first. */
  const samplesOf = async (dev: typeof INV, since = 0) => {
    const def = getDefinition(dev.devcode)!;
    const rows = await s.ctx.db
      .selectFrom('samples as x')
      .innerJoin('devices as d', 'd.id', 'x.device_id')
      .select(['x.ts', 'x.data'])
      .where('d.sn', '=', dev.sn)
      .where('x.ts', '>', since)
      .orderBy('x.ts')
      .execute();
    return rows.map((r) => ({ ts: Number(r.ts), v: decodeSample(def, r.data) }));
  };
  const lastSampleTs = async (dev: typeof INV) => (await samplesOf(dev)).at(-1)?.ts ?? 0;

  beforeAll(async () => {
    s = await startTestServer(engine, {
      config: { telemetry: { ...loadConfig({}).telemetry, mqttPort: 0, mqttHost: '127.0.0.1', jobsEnabled: false } },
    });
    const { fleet: spec } = await seedTelemetry(s);
    const anna: DataloggerSpec = {
      ...structuredClone(spec.dataloggers.find((d) => d.pn === PN)!),
      offlineRate: 0,
      warningRate: 0,
      faultRate: 0,
      collectInterval: 10,
      heartbeatInterval: 5,
    };
    // Simulated time runs from 01:00 local (a night: the battery carries the load in SBU mode),
    // 20 × faster than real time and always in the past of the server's clock.
    const today = Math.floor(Date.now() / DAY) * DAY;
    simStart = Date.now() - today > 3 * 3600_000 ? today : today - DAY;
    fleet = new LiveFleet([anna], {
      clock: simClock({ speed: 20, start: simStart }),
      tickMs: 100,
      offlineSpells: false,
      publisherFor: (d) => new MqttPublisher({ url: `mqtt://127.0.0.1:${s.mqtt!.port}`, pn: d.pn, token: d.token }),
    });
    fleet.start();
    for (const [usr, pwd] of [
      ['owner_anna', 'Owner_2026'],
      ['viewer_cara', 'Viewer_2026'],
      ['owner_ben', 'Owner_2026'],
      ['dealer_north', 'Dealer_2026'],
      ['sunmaker', 'Maker_2026'],
    ] as const) {
      const r = await s.login(usr, pwd);
      expect(r.err, usr).toBe(0);
      sessions[usr] = { token: (r.dat as AuthDat).token, secret: (r.dat as AuthDat).secret };
    }
    await until('the datalogger online with samples', async () => {
      const dl = await s.ctx.db.selectFrom('dataloggers').select('status').where('pn', '=', PN).executeTakeFirst();
      return dl?.status === 0 && (await samplesOf(BAT)).length >= 3;
    });
  }, 60_000);

  afterAll(async () => {
    await fleet?.stop();
    await s?.stop();
  });

  it('lists the control fields of the definition (translated), read-only for the viewer, 258 for another tenant', async () => {
    const r = await call<{
      field: Array<{ id: string; name: string; item?: Array<{ key: string; val: string }>; write: boolean }>;
      pwd: boolean;
    }>('owner_anna', 'queryDeviceCtrlField', { ...INV, i18n: 'de_DE' });
    expect(r.err).toBe(0);
    const prio = r.dat!.field.find((f) => f.id === 'los_output_source_priority')!;
    expect(prio.name).toBe('Priorität der Ausgangsquelle');
    expect(prio.item!.map((i) => i.key)).toEqual(['0', '1', '2']);
    expect(prio.write).toBe(true);
    expect(r.dat!.field).toHaveLength(getDefinition(2341)!.controls.length);
    const viewer = await call<{ field: Array<{ write: boolean }> }>('viewer_cara', 'queryDeviceCtrlField', INV);
    expect(viewer.err).toBe(0);
    expect(viewer.dat!.field.every((f) => !f.write)).toBe(true);
    expect((await call('owner_ben', 'queryDeviceCtrlField', INV)).err).toBe(258);
  });

  it('changes the output source priority: the read value, the next samples and the power flows follow', async () => {
    const before = await call<{ val: string; src: string }>('owner_anna', 'queryDeviceCtrlValue', {
      ...INV,
      id: 'los_output_source_priority',
    });
    expect(before).toMatchObject({ err: 0, dat: { val: '2', src: 'device' } });
    // SBU at night: the battery discharges into the load.
    const sbu = (await samplesOf(BAT)).slice(-3);
    expect(sbu.every((x) => x.v.bt_battery_power! > 50)).toBe(true);

    const since = await lastSampleTs(INV);
    const r = await call<{ dat: string | null; status: number }>('owner_anna', 'ctrlDevice', {
      ...INV,
      id: 'los_output_source_priority',
      val: '0',
    });
    expect(r.err).toBe(0);
    expect(r.dat!.status).toBe(1);
    expect(r.dat!.dat).toMatch(/^01 10 01 2A 00 01 [0-9A-F]{2} [0-9A-F]{2}$/);

    // The next frames carry the new value in the read-back field…
    const inv = await until('a sample with utility priority', async () =>
      (await samplesOf(INV, since)).find((x) => x.v.bc_output_source_priority === 0),
    );
    // …and the plant behaves accordingly: the battery stops discharging, the grid carries the load.
    const bat = await until('battery samples after the switch', async () => {
      const xs = (await samplesOf(BAT, inv.ts)).slice(1);
      return xs.length >= 3 ? xs : undefined;
    });
    expect(bat.every((x) => x.v.bt_battery_power! <= 0)).toBe(true);
    const after = (await samplesOf(INV, inv.ts)).slice(1);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((x) => x.v.sy_status === 4)).toBe(true); // Line Mode: importing

    const now = await call<{ val: string; src: string }>('owner_anna', 'queryDeviceCtrlValue', {
      ...INV,
      id: 'los_output_source_priority',
    });
    expect(now.dat).toMatchObject({ val: '0', src: 'device' });

    // The operation history shows who changed what, old → new.
    const log = await call<{
      total: number;
      log: Array<{ kind: string; target: string; before: string; after: string; result: number; usr: string }>;
    }>('viewer_cara', 'webQueryOperationLog', {
      ...INV,
      sdate: '2020-01-01',
      edate: new Date(Date.now() + DAY).toISOString().slice(0, 10),
    });
    expect(log.err).toBe(0);
    expect(log.dat!.log[0]).toMatchObject({
      kind: 'ctrl',
      target: 'los_output_source_priority',
      before: '"2"',
      after: '"0"',
      result: 0,
      usr: 'owner_anna',
    });
    expect((await call('owner_ben', 'webQueryOperationLog', { pn: PN })).err).toBe(257);

    // Back to SBU for the other tests.
    expect((await call('owner_anna', 'ctrlDevice', { ...INV, id: 'los_output_source_priority', val: '2' })).err).toBe(
      0,
    );
  });

  it('answers the device-control errors: 6 bad value, 9 unknown control, 11 viewer or hidden field, 8 rejected, 1 no answer, 258', async () => {
    const err = async (who: string, p: Record<string, string | number>) => (await call(who, 'ctrlDevice', p)).err;
    expect(await err('owner_anna', { ...INV, id: 'los_output_source_priority', val: '7' })).toBe(6);
    expect(await err('owner_anna', { ...BAT, id: 'bat_charge_current_limit', val: '101' })).toBe(6);
    expect(await err('owner_anna', { ...INV, id: 'no_such_control', val: '1' })).toBe(9);
    expect(await err('viewer_cara', { ...INV, id: 'los_output_source_priority', val: '1' })).toBe(11);
    expect(await err('owner_ben', { ...INV, id: 'los_output_source_priority', val: '1' })).toBe(258);
    // A battery refuses to go to sleep while current flows through it (8); the test makes it flow:
    // the simulator's battery power of the moment decides, so pin it to a discharging state first.
    const sim = fleet.loggers[0]!.sim;
    const snap = sim.last?.snap;
    if (snap) snap.batteryW = 1500;
    expect(await err('owner_anna', { ...BAT, id: 'sys_sleep', val: '1' })).toBe(8);

    // dealer_north hides a field from its owners: gone from the list, refused on write.
    const hide = await call('dealer_north', 'editDeviceCtrlFieldForDist', {
      devcode: 2341,
      id: 'los_output_frequency',
      visable: 0,
    });
    expect(hide.err).toBe(0);
    const fields = await call<{ field: Array<{ id: string }> }>('owner_anna', 'queryDeviceCtrlField', INV);
    expect(fields.dat!.field.map((f) => f.id)).not.toContain('los_output_frequency');
    expect(await err('owner_anna', { ...INV, id: 'los_output_frequency', val: '1' })).toBe(11);
    expect((await call('owner_anna', 'sendCmdToDevice', { ...INV, cmd: '01 03 01 2A 00 01' })).err).toBe(11);
    // The dealer itself still controls it.
    expect(await err('dealer_north', { ...INV, id: 'los_output_frequency', val: '0' })).toBe(0);
    await call('dealer_north', 'editDeviceCtrlFieldForDist', { devcode: 2341, id: 'los_output_frequency', visable: 1 });

    // A device row the datalogger does not have behind it: no answer from the bus (1).
    await s.ctx.db
      .insertInto('devices')
      .values({
        datalogger_id: (
          await s.ctx.db.selectFrom('dataloggers').select('id').where('pn', '=', PN).executeTakeFirstOrThrow()
        ).id,
        pn: PN,
        devcode: 5123,
        devaddr: 7,
        sn: 'SW5123GHOST007',
        alias: '',
        devtype: 1792,
        device_type: 0,
        model: 'ghost',
        firmware: '',
        load: 0,
        brand: '0',
        status: 1,
        created_at: Date.now(),
      })
      .execute();
    expect(
      await err('owner_anna', {
        pn: PN,
        devcode: 5123,
        devaddr: 7,
        sn: 'SW5123GHOST007',
        id: 'bat_soc_low_cutoff',
        val: '20',
      }),
    ).toBe(1);

    // Every attempt is in the history with its result.
    const log = await call<{ log: Array<{ target: string; result: number }> }>('owner_anna', 'webQueryOperationLog', {
      pn: PN,
      kind: 'ctrl',
      pagesize: 50,
    });
    const results = log.dat!.log.map((l) => `${l.target}:${l.result}`);
    expect(results).toContain('los_output_source_priority:6');
    expect(results).toContain('no_such_control:9');
    expect(results).toContain('sys_sleep:8');
    expect(results).toContain('los_output_frequency:11');
    expect(results).toContain('bat_soc_low_cutoff:1');
  });

  it('answers 263 when the datalogger is offline and 2 when it does not answer in time', async () => {
    const ben = { pn: 'SWSOUTH0000001', devcode: 5121, devaddr: 1 };
    const dev = await s.ctx.db
      .selectFrom('devices')
      .select('sn')
      .where('pn', '=', ben.pn)
      .where('devcode', '=', 5121)
      .executeTakeFirstOrThrow();
    const p = { ...ben, sn: dev.sn, id: 'grd_active_power_limit', val: '50' };
    // Seeded offline (no simulator runs it).
    expect((await call('owner_ben', 'ctrlDevice', p)).err).toBe(263);
    // Online, and not connected to the embedded broker: 263 at once, nothing sent.
    await s.ctx.db.updateTable('dataloggers').set({ status: 0 }).where('pn', '=', ben.pn).execute();
    expect((await call('owner_ben', 'ctrlDevice', p)).err).toBe(263);
    // The platform cannot tell whether it is connected (an external broker) and nothing answers: timeout.
    const telemetry = s.ctx.services.telemetry;
    const isConnected = telemetry.isConnected.bind(telemetry);
    telemetry.isConnected = () => undefined;
    const commands = s.ctx.services.commands as unknown as { deps: { timeoutMs?: number } };
    const saved = commands.deps.timeoutMs;
    commands.deps.timeoutMs = 800;
    try {
      expect((await call('owner_ben', 'ctrlDevice', p)).err).toBe(2);
      expect((await call('owner_ben', 'sendCmdToDevice', { ...ben, sn: dev.sn, cmd: '01 03 00 00 00 01' })).err).toBe(
        2,
      );
    } finally {
      telemetry.isConnected = isConnected;
      commands.deps.timeoutMs = saved;
      await s.ctx.db.updateTable('dataloggers').set({ status: 1 }).where('pn', '=', ben.pn).execute();
    }
    // The offline device's value falls back to nothing (no read-back sample): 263.
    expect(
      (await call('owner_ben', 'queryDeviceCtrlValue', { ...ben, sn: dev.sn, id: 'grd_active_power_limit' })).err,
    ).toBe(263);
  });

  it('sendCmdToDevice passes raw bytes to the device and answers its reply', async () => {
    await call('owner_anna', 'ctrlDevice', { ...INV, id: 'los_output_source_priority', val: '1' });
    const r = await call<{ dat: string }>('owner_anna', 'sendCmdToDevice', { ...INV, cmd: '0103012a0001' });
    expect(r.err).toBe(0);
    expect(r.dat!.dat).toMatch(/^01 03 02 00 01 [0-9A-F]{2} [0-9A-F]{2}$/);
    expect((await call('owner_anna', 'sendCmdToDevice', { ...INV, cmd: 'AB C' })).err).toBe(6);
    expect((await call('viewer_cara', 'sendCmdToDevice', { ...INV, cmd: '01 03 01 2A 00 01' })).err).toBe(11);
    await call('owner_anna', 'ctrlDevice', { ...INV, id: 'los_output_source_priority', val: '2' });
    const log = await call<{ log: Array<{ kind: string; after: string; detail: string; result: number }> }>(
      'owner_anna',
      'webQueryOperationLog',
      { ...INV, kind: 'command' },
    );
    expect(log.dat!.log[1]).toMatchObject({ kind: 'command', after: '"01 03 01 2A 00 01"', result: 0 });
    expect(log.dat!.log[1]!.detail).toBe(r.dat!.dat);
  });

  it('a device-control password of the manufacturer guards writes of its domain', async () => {
    expect((await call('owner_anna', 'setDeviceCtrlPwd', { pwd: 'Secret_42' })).err).toBe(11);
    expect((await call('sunmaker', 'setDeviceCtrlPwd', { pwd: 'abc' })).err).toBe(17);
    expect((await call('sunmaker', 'setDeviceCtrlPwd', { pwd: 'Secret_42' })).err).toBe(0);
    const q = await call<{ set: boolean; domain: string }>('dealer_north', 'queryDeviceCtrlPwd');
    expect(q.dat).toMatchObject({ set: true, domain: 'SW' });
    const stored = await s.ctx.db.selectFrom('device_ctrl_passwords').select('hash').executeTakeFirstOrThrow();
    expect(stored.hash).not.toContain('Secret_42');
    const fields = await call<{ pwd: boolean }>('owner_anna', 'queryDeviceCtrlField', INV);
    expect(fields.dat!.pwd).toBe(true);
    const p = { ...INV, id: 'los_output_source_priority', val: '2' };
    const missing = await call('owner_anna', 'ctrlDevice', p);
    expect([missing.err, missing.msg]).toEqual([11, 'A password guards control of this device: enter the device-control password']);
    const wrong = await call('owner_anna', 'ctrlDevice', { ...p, pwd: 'wrong_pwd', i18n: 'de_DE' });
    expect([wrong.err, wrong.msg]).toEqual([11, 'Falsches Gerätesteuerungspasswort']);
    expect((await call('owner_anna', 'ctrlDevice', { ...p, pwd: 'Secret_42' })).err).toBe(0);
    // Cleared: writes go through without it again.
    expect((await call('sunmaker', 'setDeviceCtrlPwd', { pwd: '' })).err).toBe(0);
    expect((await call('sunmaker', 'setDeviceCtrlPwd', { pwd: '' })).err).toBe(271);
    expect((await call('owner_anna', 'ctrlDevice', p)).err).toBe(0);
  });

  it('editDeviceInfo sets the alias (271 without change, 11 viewer, 258 foreign) and records it', async () => {
    expect((await call('owner_anna', 'editDeviceInfo', { ...INV, alias: 'Hybrid Nord' })).err).toBe(0);
    const row = await s.ctx.db.selectFrom('devices').select('alias').where('sn', '=', INV.sn).executeTakeFirstOrThrow();
    expect(row.alias).toBe('Hybrid Nord');
    expect((await call('owner_anna', 'editDeviceInfo', { ...INV, alias: 'Hybrid Nord' })).err).toBe(271);
    expect((await call('owner_anna', 'editDeviceInfo', INV)).err).toBe(271);
    expect((await call('viewer_cara', 'editDeviceInfo', { ...INV, alias: 'x' })).err).toBe(11);
    expect((await call('owner_ben', 'editDeviceInfo', { ...INV, alias: 'x' })).err).toBe(258);
    const log = await call<{ log: Array<{ kind: string; before: string; after: string }> }>(
      'owner_anna',
      'webQueryOperationLog',
      {
        ...INV,
        kind: 'edit',
      },
    );
    expect(log.dat!.log[0]).toMatchObject({ kind: 'edit', before: '"Hybrid inverter"', after: '"Hybrid Nord"' });
  });

  it('exports a device report as xlsx with German headers, downloadable through a signed address', async () => {
    const first = (await samplesOf(INV))[0]!.ts;
    const day = new Date(first + TZ * 1000).toISOString().slice(0, 10);
    const last = new Date(Date.now() + TZ * 1000).toISOString().slice(0, 10);
    expect(
      (
        await call('owner_anna', 'exportDeviceReport', {
          ...INV,
          sdate: '2026-01-01',
          edate: '2026-03-01',
          i18n: 'de_DE',
        })
      ).err,
    ).toBe(6); // more than 31 days
    expect(
      (await call('viewer_cara', 'exportDeviceReport', { ...INV, sdate: day, edate: last, i18n: 'de_DE' })).err,
    ).toBe(0);
    const r = await call<{ id: number; status: number }>('owner_anna', 'exportDeviceReport', {
      ...INV,
      sdate: day,
      edate: last,
      i18n: 'de_DE',
    });
    expect(r.err).toBe(0);
    expect(r.dat!.status).toBe(0);
    await s.ctx.services.reports.runner.idle();
    const list = await call<{
      total: number;
      file: Array<{ id: number; status: number; progress: number; size: number; name: string }>;
    }>('owner_anna', 'webQueryExportFiles');
    const file = list.dat!.file.find((f) => f.id === r.dat!.id)!;
    expect(file).toMatchObject({ status: 1, progress: 100 });
    expect(file.name).toMatch(/^Hybrid Nord_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/);
    // Another account's file does not exist for them.
    expect((await call('owner_ben', 'queryExportFileUrl', { id: file.id })).err).toBe(12);
    const url = await call<{ url: string }>('owner_anna', 'queryExportFileUrl', { id: file.id });
    expect(url.err).toBe(0);
    const res = await fetch(s.url + url.dat!.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const buf = Buffer.from(await res.arrayBuffer());
    expect(buf.length).toBe(file.size);
    // A tampered signature is refused.
    expect((await fetch(s.url + url.dat!.url + '0')).status).toBe(404);

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const header = (ws.getRow(1).values as unknown[]).slice(1).map(String);
    expect(header[0]).toBe('Zeitstempel');
    expect(header).toContain('Priorität der Ausgangsquelle');
    const stored = await s.ctx.db
      .selectFrom('samples as x')
      .innerJoin('devices as d', 'd.id', 'x.device_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('d.sn', '=', INV.sn)
      .where(
        'x.ts',
        '<',
        (
          await s.ctx.db
            .selectFrom('export_files')
            .select('finished_at')
            .where('id', '=', file.id)
            .executeTakeFirstOrThrow()
        ).finished_at!,
      )
      .executeTakeFirstOrThrow();
    expect(ws.rowCount - 1).toBeGreaterThan(10);
    expect(ws.rowCount - 1).toBeLessThanOrEqual(Number(stored.n));
    const ts = ws.getRow(2).getCell(1).value as string;
    expect(ts).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    expect((await call('owner_anna', 'delExportFile', { id: file.id })).err).toBe(0);
    expect((await fetch(s.url + url.dat!.url)).status).toBe(404);
  });

  it('retryExportFile builds a failed export again on the same record: only the caller\'s, only when failed, audited', async () => {
    const first = (await samplesOf(INV))[0]!.ts;
    const day = new Date(first + TZ * 1000).toISOString().slice(0, 10);
    const curves = s.ctx.services.devices.curves;
    const dataOneDay = curves.dataOneDay.bind(curves);
    // The storage fails while the export is built: the file ends failed, with the reason kept.
    curves.dataOneDay = () => Promise.reject(new Error('storage unavailable'));
    let id: number;
    try {
      const r = await call<{ id: number }>('owner_anna', 'exportDeviceReport', { ...INV, sdate: day, edate: day, i18n: 'fr_FR' });
      expect(r.err).toBe(0);
      id = r.dat!.id;
      await s.ctx.services.reports.runner.idle();
    } finally {
      curves.dataOneDay = dataOneDay;
    }
    const files = async () =>
      (await call<{ file: Array<{ id: number; status: number; progress: number; size: number }> }>('owner_anna', 'webQueryExportFiles')).dat!.file;
    expect((await files()).find((f) => f.id === id)).toMatchObject({ status: 2 });
    expect((await call('owner_anna', 'queryExportFileUrl', { id })).err).toBe(12);
    // Another account's failed file does not exist for them.
    expect((await call('owner_ben', 'retryExportFile', { id })).err).toBe(12);
    const before = (await s.ctx.db.selectFrom('export_files').select(['status']).where('id', '=', id).executeTakeFirstOrThrow()).status;
    expect(Number(before)).toBe(2);

    const again = await call<{ id: number; status: number; progress: number }>('owner_anna', 'retryExportFile', { id });
    expect(again.err).toBe(0);
    expect(again.dat).toMatchObject({ id, status: 0, progress: 0 });
    await s.ctx.services.reports.runner.idle();
    const list = await files();
    expect(list.filter((f) => f.id === id)).toHaveLength(1);
    const ready = list.find((f) => f.id === id)!;
    expect(ready).toMatchObject({ status: 1, progress: 100 });
    // A ready file is not retried.
    expect((await call('owner_anna', 'retryExportFile', { id })).err).toBe(271);
    const url = await call<{ url: string }>('owner_anna', 'queryExportFileUrl', { id });
    expect(url.err).toBe(0);
    const res = await fetch(s.url + url.dat!.url);
    expect(res.status).toBe(200);
    const buf = Buffer.from(await res.arrayBuffer());
    expect(buf.length).toBe(ready.size);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
    // Built in the language of the first request (French headers).
    expect(String(wb.worksheets[0]!.getRow(1).getCell(1).value)).toBe('Horodatage');
    expect(wb.worksheets[0]!.rowCount).toBeGreaterThan(1);
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('entity', '=', 'export_file')
      .where('entity_id', '=', String(id))
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['retryExportFile']);
    expect(JSON.parse(audit[0]!.before!)).toMatchObject({ status: 2, error: 'storage unavailable' });
    expect(JSON.parse(audit[0]!.after!)).toEqual({ status: 0 });
    expect((await call('owner_anna', 'delExportFile', { id })).err).toBe(0);
    expect((await call('owner_anna', 'retryExportFile', { id })).err).toBe(12);
  });

  it('helpform: SN and address must match, sync makes the datalogger resend, recalc rebuilds the day rollups', async () => {
    const day = new Date(simStart + TZ * 1000).toISOString().slice(0, 10);
    const form = { sn: BAT.sn, sn2: BAT.sn, devaddr: 2, devaddr2: 2, devcode: 5123, sdate: day, edate: day };
    expect((await call('owner_anna', 'syncDeviceData', { ...form, sn2: 'SW5123N0000103' })).err).toBe(6);
    expect((await call('owner_anna', 'syncDeviceData', { ...form, devaddr2: 3 })).err).toBe(6);
    expect((await call('owner_anna', 'syncDeviceData', { ...form, devcode: 2341 })).err).toBe(258);
    // Lose some samples, then have the datalogger resend them.
    const dev = await s.ctx.db.selectFrom('devices').select('id').where('sn', '=', BAT.sn).executeTakeFirstOrThrow();
    const all = await samplesOf(BAT);
    const cut = all[Math.floor(all.length / 2)]!.ts;
    await s.ctx.db.deleteFrom('samples').where('device_id', '=', dev.id).where('ts', '<', cut).execute();
    const kept = (await samplesOf(BAT)).length;
    const r = await call<{ frames: number; samples: number }>('owner_anna', 'syncDeviceData', form);
    expect(r.err).toBe(0);
    expect(r.dat!.frames).toBeGreaterThanOrEqual(all.length - 1);
    await until(
      'the resent samples stored',
      async () => (await samplesOf(BAT)).filter((x) => x.ts < cut).length >= all.filter((x) => x.ts < cut).length,
    );
    expect((await samplesOf(BAT)).length).toBeGreaterThan(kept);

    // Break the day's rollup, rebuild it from the samples.
    const dayNum = localDay(simStart, TZ);
    await s.ctx.db
      .updateTable('device_days')
      .set({ chg_max: 0, dis_max: 0, samples: 1 })
      .where('device_id', '=', dev.id)
      .where('day', '=', dayNum)
      .execute();
    const rc = await call<{ days: number; samples: number }>('owner_anna', 'recalcDeviceData', form);
    expect(rc.err).toBe(0);
    expect(rc.dat!.days).toBe(1);
    const rebuilt = await s.ctx.db
      .selectFrom('device_days')
      .selectAll()
      .where('device_id', '=', dev.id)
      .where('day', '=', dayNum)
      .executeTakeFirstOrThrow();
    expect(rebuilt.samples).toBe(rc.dat!.samples);
    const xs = (await samplesOf(BAT)).filter((x) => localDay(x.ts, TZ) === dayNum);
    expect(rebuilt.dis_max).toBeCloseTo(Math.max(...xs.map((x) => x.v.bt_energy_discharged_total!)), 6);
    expect((await call('viewer_cara', 'recalcDeviceData', form)).err).toBe(11);
  });

  it('querySPDeviceKeyParameterTotalPerYear answers the yearly energy of a counter', async () => {
    // A day of an earlier year in the rollups: 12.5 kWh discharged that year.
    const dev = await s.ctx.db.selectFrom('devices').select('id').where('sn', '=', BAT.sn).executeTakeFirstOrThrow();
    const y = new Date(simStart).getUTCFullYear();
    await s.ctx.db
      .insertInto('device_days')
      .values({
        device_id: dev.id,
        day: (y - 2) * 10000 + 601,
        samples: 2,
        dis_min: 100,
        dis_max: 112.5,
        first_ts: Date.UTC(y - 2, 5, 1, 8),
        last_ts: Date.UTC(y - 2, 5, 1, 18),
      } as never)
      .execute();
    const r = await call<{ option: Array<{ val: string; gts: string }> }>(
      'owner_anna',
      'querySPDeviceKeyParameterTotalPerYear',
      {
        ...BAT,
        parameter: 'BATTERY_ENERGY_TOTAL_DISCHARGE',
      },
    );
    expect(r.err).toBe(0);
    expect(r.dat!.option.map((o) => o.gts)).toEqual([String(y - 2), String(y - 1), String(y)]);
    expect(r.dat!.option[0]!.val).toBe('12.5000');
    expect(r.dat!.option[1]!.val).toBe('0.0000');
    // This year: from the earlier year's last value to the counter now (its lifetime discharge).
    const lastDis = (await samplesOf(BAT)).at(-1)!.v.bt_energy_discharged_total!;
    expect(Number(r.dat!.option[2]!.val)).toBeGreaterThan(lastDis - 112.5 - 1);
    expect(Number(r.dat!.option[2]!.val)).toBeLessThanOrEqual(lastDis - 112.5 + 1e-6);
    expect(
      (await call('owner_anna', 'querySPDeviceKeyParameterTotalPerYear', { ...BAT, parameter: 'PV_ENERGY_TOTAL' })).err,
    ).toBe(6);
  });

  it('delDeviceFromPlant takes the device out of its plant (271 when it is not in one)', async () => {
    expect((await call('viewer_cara', 'delDeviceFromPlant', BAT)).err).toBe(11);
    expect((await call('owner_anna', 'delDeviceFromPlant', BAT)).err).toBe(0);
    const row = await s.ctx.db
      .selectFrom('devices')
      .select('project_id')
      .where('sn', '=', BAT.sn)
      .executeTakeFirstOrThrow();
    expect(row.project_id).toBeNull();
    expect((await call('owner_anna', 'delDeviceFromPlant', BAT)).err).toBe(271);
    // The owner still sees it through the datalogger.
    expect((await call('owner_anna', 'queryDeviceCtrlField', BAT)).err).toBe(0);
  });
});
