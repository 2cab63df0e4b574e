import { DEVCODE_2341, EXPORT_STATUS, type AuthDat, type ReportFileRow } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDatalogger, insertDevice, insertPlant, insertSamples } from '../factories/telemetry-rows.js';
import { dayStartMs } from '../../src/shared/local-time.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';

/**
 * The one export history (session 26): webQueryReportFiles pages the caller's report files and
 * its device exports (issue 10's export_files) together on the server, newest first, with a
 * total over both; another account's files never appear; a device export downloads and deletes
 * through the history (`origin: 'export'`: issue 10's signed link and deletion).
 */

const TZ = 3600;
const DEV = { pn: 'HISA0000000001', devcode: 2341, devaddr: 1, sn: 'HIS-SN-0001' };
const PASSWORDS = { owner_anna: 'Owner_2026', owner_ben: 'Owner_2026' } as const;
type Who = keyof typeof PASSWORDS;
type Page = { total: number; page: number; pagesize: number; file: ReportFileRow[] };

describe.each(engines)('one export history ($name)', (engine) => {
  let s: TestServer;
  const sessions: Record<string, AuthDat> = {};
  let plant = 0;
  const call = <T = unknown>(who: Who, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions[who]!, action, params);
  const history = async (who: Who, params: Record<string, number> = {}) => {
    const r = await call<Page>(who, 'webQueryReportFiles', params);
    expect(r.err).toBe(0);
    return r.dat!;
  };

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    for (const [usr, pwd] of Object.entries(PASSWORDS)) {
      const r = await s.login(usr, pwd);
      expect(r.err, usr).toBe(0);
      sessions[usr] = r.dat!;
    }
    const db = s.ctx.db;
    const now = s.clock.now();
    plant = await insertPlant(db, { owner_id: sessions.owner_anna!.uid, name: 'History Roof', now, tz_offset: TZ });
    const dl = await insertDatalogger(db, {
      pn: DEV.pn,
      now,
      owner_id: sessions.owner_anna!.uid,
      project_id: plant,
      tz_offset: TZ,
    });
    const dev = await insertDevice(db, {
      datalogger_id: dl,
      ...DEV,
      now,
      project_id: plant,
      alias: 'History inverter',
    });
    const samples: Array<{ ts: number; values: Record<string, number> }> = [];
    for (let d = 1; d <= 10; d++) {
      const start = dayStartMs(20260600 + d, TZ);
      samples.push({ ts: start + 8 * 3600_000, values: { energy_pv_total: 100 + d * 10, pv_output_power: 500 } });
      samples.push({ ts: start + 16 * 3600_000, values: { energy_pv_total: 105 + d * 10, pv_output_power: 0 } });
    }
    await insertSamples(db, DEVCODE_2341, dev, samples, TZ);
    // Another account's files in both tables: never in anna's history.
    const ben = sessions.owner_ben!.uid;
    await db
      .insertInto('report_files')
      .values({
        account_id: ben,
        scope: 'plant',
        type: 'total',
        date: '',
        sdate: '',
        edate: '',
        project_id: null,
        device_id: null,
        target: 'Ben plant',
        pn: '',
        sn: '',
        devcode: 0,
        devaddr: 0,
        locale: 'en_US',
        name: 'ben-report.xlsx',
        state: 'done',
        progress: 100,
        size: 0,
        path: '',
        error: '',
        created_at: now + 5000,
      })
      .execute();
    await db
      .insertInto('export_files')
      .values({
        account_id: ben,
        kind: 'device_report',
        name: 'ben-export.xlsx',
        pn: '',
        sn: 'BEN-SN',
        device_id: null,
        locale: 'en_US',
        progress: 0,
        size: 0,
        data: null,
        error: 'x',
        finished_at: now + 6000,
        status: EXPORT_STATUS.FAILED,
        created_at: now + 6000,
        sdate: '2026-06-01',
        edate: '2026-06-02',
      })
      .execute();
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('a device export and plant reports appear in one history in time order, with one total across pages', async () => {
    const runner = s.ctx.services.reports.runner;
    const devExport = await call<{ id: number }>('owner_anna', 'exportDeviceReport', {
      ...DEV,
      sdate: '2026-06-01',
      edate: '2026-06-03',
      i18n: 'en_US',
    });
    expect(devExport.err).toBe(0);
    s.clock.advance(1000);
    const monthly = await call<ReportFileRow>('owner_anna', 'exportPlantReport', {
      plantid: plant,
      type: 'monthly',
      date: '2026-06',
      lang: 'en_US',
    });
    expect(monthly.err).toBe(0);
    expect(monthly.dat).toMatchObject({ origin: 'report', kind: 'plant' });
    s.clock.advance(1000);
    const daily = await call<ReportFileRow>('owner_anna', 'exportPlantReport', {
      plantid: plant,
      type: 'daily',
      date: '2026-06-02',
      lang: 'en_US',
    });
    expect(daily.err).toBe(0);
    await runner.idle();

    const first = await history('owner_anna', { page: 0, pagesize: 2 });
    const second = await history('owner_anna', { page: 1, pagesize: 2 });
    expect(first.total).toBe(3);
    expect(second.total).toBe(3);
    expect(first.file.map((f) => [f.origin, f.id, f.kind])).toEqual([
      ['report', daily.dat!.id, 'plant'],
      ['report', monthly.dat!.id, 'plant'],
    ]);
    expect(second.file).toHaveLength(1);
    const dev = second.file[0]!;
    expect(dev).toMatchObject({
      origin: 'export',
      id: devExport.dat!.id,
      kind: 'device',
      scope: 'device',
      type: 'custom',
      status: EXPORT_STATUS.READY,
      progress: 100,
      sdate: '2026-06-01',
      edate: '2026-06-03',
      plantid: plant,
      target: 'History inverter',
      sn: DEV.sn,
    });
    expect(dev.size).toBeGreaterThan(0);
    expect(dev.name).toMatch(/^History inverter_2026-06-01_2026-06-03\.xlsx$/);
    // Newest first across both tables.
    const all = (await history('owner_anna', { pagesize: 50 })).file;
    const times = all.map((f) => f.gts);
    expect([...times].sort().reverse()).toEqual(times);
    // The status filter applies to both sources.
    expect((await history('owner_anna', { status: EXPORT_STATUS.READY })).total).toBe(3);
    expect((await history('owner_anna', { status: EXPORT_STATUS.FAILED })).total).toBe(0);
    // The device tab's own list is unchanged.
    const own = await call<{ total: number; file: Array<{ id: number }> }>('owner_anna', 'webQueryExportFiles');
    expect(own.dat!.file.map((f) => f.id)).toEqual([devExport.dat!.id]);
  });

  it("another account's files never appear, and it cannot fetch or delete them through the history", async () => {
    const anna = await history('owner_anna', { pagesize: 50 });
    expect(anna.file.some((f) => f.name.startsWith('ben-'))).toBe(false);
    const ben = await history('owner_ben', { pagesize: 50 });
    expect(ben.total).toBe(2);
    expect(ben.file.map((f) => [f.origin, f.name, f.kind, f.status])).toEqual([
      ['export', 'ben-export.xlsx', 'device', EXPORT_STATUS.FAILED],
      ['report', 'ben-report.xlsx', 'plant', EXPORT_STATUS.READY],
    ]);
    const dev = anna.file.find((f) => f.origin === 'export')!;
    expect((await call('owner_ben', 'queryReportFileUrl', { id: dev.id, origin: 'export' })).err).toBe(12);
    expect((await call('owner_ben', 'delReportFile', { id: dev.id, origin: 'export' })).err).toBe(12);
    expect((await history('owner_anna', { pagesize: 50 })).total).toBe(3);
  });

  it('downloads and deletes a device export through the history', async () => {
    const dev = (await history('owner_anna', { pagesize: 50 })).file.find((f) => f.origin === 'export')!;
    const u = await call<{ url: string; name: string }>('owner_anna', 'queryReportFileUrl', {
      id: dev.id,
      origin: 'export',
    });
    expect(u.err).toBe(0);
    expect(u.dat!.url).toMatch(/^\/export\/file\//);
    expect(u.dat!.name).toBe(dev.name);
    const res = await fetch(s.url + u.dat!.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect((await res.arrayBuffer()).byteLength).toBe(dev.size);

    expect((await call('owner_anna', 'delReportFile', { id: dev.id, origin: 'export' })).err).toBe(0);
    const audit = await s.ctx.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('entity', '=', 'export_file')
      .where('entity_id', '=', String(dev.id))
      .execute();
    expect(audit).toEqual([{ action: 'delReportFile', before: expect.stringContaining(dev.name), after: null }]);
    const after = await history('owner_anna', { pagesize: 50 });
    expect(after.total).toBe(2);
    expect(after.file.every((f) => f.origin === 'report')).toBe(true);
    expect((await call<{ total: number }>('owner_anna', 'webQueryExportFiles')).dat!.total).toBe(0);
    expect((await call('owner_anna', 'delReportFile', { id: dev.id, origin: 'export' })).err).toBe(12);
  });
});
