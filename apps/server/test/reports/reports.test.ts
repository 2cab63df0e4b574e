import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { DEVCODE_2341, EXPORT_STATUS, REPORT_ENERGY_KEYS, type AuthDat, type ReportFileRow } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDatalogger, insertDevice, insertPlant, insertSamples } from '../factories/telemetry-rows.js';
import { dayStartMs } from '../../src/shared/local-time.js';
import { REPORT_LEASE_MS } from '../../src/modules/reports/report-files.service.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';

/**
 * Issue 11 report exports end to end: a plant's monthly report is queued, built in the
 * background with progress, downloaded through its signed address and checked cell by cell
 * against the day rollups; the period rules, the scoping to the caller, the signed link, the
 * deletion and the take-over of an export left "exporting" by a stopped instance.
 */

const TZ = 7200;
const DEV = { pn: 'RPTA0000000001', devcode: 2341, devaddr: 1, sn: 'RPT-SN-0001' };
const PASSWORDS = { owner_anna: 'Owner_2026', owner_ben: 'Owner_2026' } as const;
/** Daily increments (kWh) of each counter on May day i (1..31). */
const inc = (i: number) => ({
  energy_pv_total: 10 + (i % 7),
  energy_load_total: 6 + (i % 3),
  energy_grid_import_total: 2 + (i % 2) * 0.5,
  energy_battery_charge_total: 3,
  energy_battery_discharge_total: 2.5,
});
type Files = { total: number; file: ReportFileRow[] };

async function until<T>(what: string, f: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(engines)('report exports ($name)', (engine) => {
  let s: TestServer;
  const sessions: Record<string, AuthDat> = {};
  let plantA = 0;
  const call = <T = unknown>(who: keyof typeof PASSWORDS, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions[who]!, action, params);
  const files = async (who: keyof typeof PASSWORDS) => (await call<Files>(who, 'webQueryReportFiles', { pagesize: 50 })).dat!;
  const ready = (who: keyof typeof PASSWORDS, id: number) =>
    until(`report ${id} ready`, async () => {
      const f = (await files(who)).file.find((x) => x.id === id);
      return f && f.status !== EXPORT_STATUS.EXPORTING ? f : undefined;
    });
  const download = async (url: string) => {
    const res = await fetch(s.url + url);
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') };
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
    plantA = await insertPlant(db, { owner_id: sessions.owner_anna!.uid, name: 'Report Roof', now, tz_offset: TZ, unit_profit: 0.25, currency: 'EUR' });
    const dl = await insertDatalogger(db, { pn: DEV.pn, now, owner_id: sessions.owner_anna!.uid, project_id: plantA, tz_offset: TZ });
    const dev = await insertDevice(db, { datalogger_id: dl, ...DEV, now, project_id: plantA, alias: 'Roof inverter' });
    // 2026-04-30 … 2026-06-14: three samples a day (00:30, 12:00, 20:00 local), the counters
    // rising by inc(day of month) from the day's first sample to its last.
    const c: Record<string, number> = {
      energy_pv_total: 1000,
      energy_load_total: 500,
      energy_grid_import_total: 100,
      energy_battery_charge_total: 50,
      energy_battery_discharge_total: 40,
    };
    const samples: Array<{ ts: number; values: Record<string, number> }> = [];
    for (let day = 20260430; day <= 20260614; ) {
      const start = dayStartMs(day, TZ);
      const d = inc(day % 100);
      samples.push({ ts: start + 30 * 60_000, values: { ...c, pv_output_power: 0 } });
      samples.push({
        ts: start + 12 * 3600_000,
        values: { ...Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v + d[k as keyof typeof d] / 2])), pv_output_power: 3000 },
      });
      for (const k of Object.keys(c)) c[k] = c[k]! + d[k as keyof typeof d];
      samples.push({ ts: start + 20 * 3600_000, values: { ...c, pv_output_power: 0 } });
      const next = new Date(Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, (day % 100) + 1));
      day = next.getUTCFullYear() * 10000 + (next.getUTCMonth() + 1) * 100 + next.getUTCDate();
    }
    await insertSamples(db, DEVCODE_2341, dev, samples, TZ);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('builds a monthly plant report in the background: progress, then a signed download whose cells equal the rollups', async () => {
    const runner = s.ctx.services.reports.runner;
    await runner.stop(); // hold the queue: the request answers at once with a queued export
    const start = await call<ReportFileRow>('owner_anna', 'exportPlantReport', { plantid: plantA, type: 'monthly', date: '2026-05', lang: 'de_DE' });
    expect(start.err).toBe(0);
    const id = start.dat!.id;
    expect(start.dat).toMatchObject({ status: EXPORT_STATUS.EXPORTING, progress: 0, scope: 'plant', type: 'monthly', sdate: '2026-05-01', edate: '2026-05-31', plantid: plantA });
    expect((await files('owner_anna')).file[0]).toMatchObject({ id, status: EXPORT_STATUS.EXPORTING, progress: 0 });
    expect((await call('owner_anna', 'queryReportFileUrl', { id })).err).toBe(12);

    // The progress the list shows while it builds, read at every step of the builder.
    const seen: number[] = [];
    const builder = s.ctx.services.reports.builder;
    const original = builder.workbook.bind(builder);
    builder.workbook = (spec, caller, first, progress) =>
      original(spec, caller, first, async (p) => {
        await progress(p);
        seen.push((await files('owner_anna')).file.find((f) => f.id === id)!.progress);
      });
    try {
      runner.start();
      await ready('owner_anna', id);
    } finally {
      builder.workbook = original;
    }
    expect(seen.length).toBeGreaterThanOrEqual(REPORT_ENERGY_KEYS.length);
    expect(seen.every((p, i) => p > 0 && p < 100 && (i === 0 || p >= seen[i - 1]!))).toBe(true);
    const done = (await files('owner_anna')).file.find((f) => f.id === id)!;
    expect(done).toMatchObject({ status: EXPORT_STATUS.READY, progress: 100 });
    expect(done.size).toBeGreaterThan(0);
    expect(done.name).toBe('Report Roof_Monatsbericht_2026-05.xlsx');

    const u = await call<{ url: string; name: string; expire: number }>('owner_anna', 'queryReportFileUrl', { id });
    expect(u.err).toBe(0);
    const file = await download(u.dat!.url);
    expect(file.status).toBe(200);
    expect(file.type).toContain('spreadsheetml');
    expect(file.body.length).toBe(done.size);

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.body as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getCell('A1').value).toBe('Monatsbericht · Anlage: Report Roof');
    expect(ws.getCell('B2').value).toBe('2026-05-01 – 2026-05-31');
    expect(ws.getRow(5).values).toEqual([
      undefined,
      'Datum',
      'Erzeugte Energie (kWh)',
      'Geladene Energie (kWh)',
      'Entladene Energie (kWh)',
      'Eingespeiste Energie (verkauft) (kWh)',
      'Bezogene Energie (kWh)',
      'Verbrauchte Energie (kWh)',
      'Ertrag (EUR)',
    ]);
    // Expected: the rollups (EnergyRepository.series over the plant) and, independently, the
    // increments written above.
    const series = new Map<string, Map<number, number>>();
    for (const k of REPORT_ENERGY_KEYS) series.set(k, await s.ctx.repos.energy.series(k, { projectIds: [plantA] }, 20260501, 20260531, 'day'));
    const sum = { generated: 0, charged: 0, discharged: 0, sold: 0, bought: 0, used: 0, income: 0 };
    for (let i = 1; i <= 31; i++) {
      const row = ws.getRow(5 + i);
      const day = 20260500 + i;
      expect(row.getCell(1).value).toBe(`2026-05-${String(i).padStart(2, '0')}`);
      REPORT_ENERGY_KEYS.forEach((k, ci) => {
        const v = row.getCell(2 + ci).value;
        expect(typeof v, `${k} ${day}`).toBe('number');
        expect(v, `${k} ${day}`).toBeCloseTo(series.get(k)!.get(day) ?? 0, 4);
        sum[k] += v as number;
      });
      const d = inc(i);
      expect(row.getCell(2).value).toBeCloseTo(d.energy_pv_total, 4);
      expect(row.getCell(3).value).toBeCloseTo(d.energy_battery_charge_total, 4);
      expect(row.getCell(4).value).toBeCloseTo(d.energy_battery_discharge_total, 4);
      expect(row.getCell(5).value).toBe(0);
      expect(row.getCell(6).value).toBeCloseTo(d.energy_grid_import_total, 4);
      expect(row.getCell(7).value).toBeCloseTo(d.energy_load_total, 4);
      expect(row.getCell(8).value).toBeCloseTo(d.energy_pv_total * 0.25, 2);
      sum.income += row.getCell(8).value as number;
    }
    const totals = ws.getRow(37);
    expect(totals.getCell(1).value).toBe('Summe');
    REPORT_ENERGY_KEYS.forEach((k, ci) => expect(totals.getCell(2 + ci).value).toBeCloseTo(sum[k], 4));
    expect(totals.getCell(8).value).toBeCloseTo(sum.income, 2);

    // The address is signed and expires; other accounts never see the file.
    const forged = u.dat!.url.replace(/sig=([0-9a-f])/, (_m, c: string) => `sig=${c === '0' ? '1' : '0'}`);
    expect((await download(forged)).status).toBe(404);
    expect((await download(u.dat!.url.replace(`/${id}?`, `/${id + 1000}?`))).status).toBe(404);
    expect((await files('owner_ben')).file.some((f) => f.id === id)).toBe(false);
    expect((await call('owner_ben', 'queryReportFileUrl', { id })).err).toBe(12);
    expect((await call('owner_ben', 'delReportFile', { id })).err).toBe(12);
    s.clock.advance(301_000);
    expect((await download(u.dat!.url)).status).toBe(404);
  });

  it('checks the period and the caller: custom > 31 days (13), bad dates (6), foreign plant (260) and device (258)', async () => {
    const custom = await call('owner_anna', 'exportPlantReport', { plantid: plantA, type: 'custom', sdate: '2026-04-01', edate: '2026-05-02' });
    expect(custom.err).toBe(13);
    expect((await call('owner_anna', 'exportDeviceEnergyReport', { ...DEV, type: 'custom', sdate: '2026-05-01', edate: '2026-06-01' })).err).toBe(13);
    expect((await call('owner_anna', 'exportPlantReport', { plantid: plantA, type: 'monthly' })).err).toBe(6);
    expect((await call('owner_anna', 'exportPlantReport', { plantid: plantA, type: 'daily', date: '2026-07-01' })).err).toBe(6);
    expect((await call('owner_ben', 'exportPlantReport', { plantid: plantA, type: 'total' })).err).toBe(260);
    expect((await call('owner_ben', 'exportDeviceEnergyReport', { ...DEV, type: 'total' })).err).toBe(258);
    const ok = await call<ReportFileRow>('owner_anna', 'exportPlantReport', { plantid: plantA, type: 'custom', sdate: '2026-05-01', edate: '2026-05-31' });
    expect(ok.err).toBe(0);
    await ready('owner_anna', ok.dat!.id);
  });

  it('a daily device report adds the day samples; deleting removes the record and its file', async () => {
    const r = await call<ReportFileRow>('owner_anna', 'exportDeviceEnergyReport', { ...DEV, type: 'daily', date: '2026-05-10', lang: 'en_US' });
    expect(r.err).toBe(0);
    const f = await ready('owner_anna', r.dat!.id);
    expect(f.status).toBe(EXPORT_STATUS.READY);
    const u = await call<{ url: string }>('owner_anna', 'queryReportFileUrl', { id: f.id });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await download(u.dat!.url)).body as unknown as ArrayBuffer);
    const sum = wb.worksheets[0]!;
    expect(sum.getCell('A1').value).toBe('Daily report · Device: Roof inverter');
    expect(sum.getCell('A6').value).toBe('2026-05-10');
    expect(sum.getCell('B6').value).toBeCloseTo(inc(10).energy_pv_total, 4);
    const samples = wb.worksheets[1]!;
    expect(samples.name).toBe('Samples 1');
    // Title, header, then the day's three samples with their local times.
    expect(samples.rowCount).toBe(5);
    expect(String(samples.getCell('A3').value)).toBe('2026-05-10 00:30:00');

    const stored = fs.readdirSync(s.ctx.services.reports.files.dir).filter((n) => n.startsWith(`${f.id}-`));
    expect(stored).toHaveLength(1);
    expect((await call('owner_anna', 'delReportFile', { id: f.id })).err).toBe(0);
    expect((await files('owner_anna')).file.some((x) => x.id === f.id)).toBe(false);
    expect(fs.existsSync(path.join(s.ctx.services.reports.files.dir, stored[0]!))).toBe(false);
    expect((await call('owner_anna', 'delReportFile', { id: f.id })).err).toBe(12);
  });

  it('an export left "exporting" by a stopped instance is taken over by another once its lease expires', async () => {
    await s.ctx.services.reports.runner.stop();
    const r = await call<ReportFileRow>('owner_anna', 'exportPlantReport', { plantid: plantA, type: 'yearly', date: '2026' });
    expect(r.err).toBe(0);
    const id = r.dat!.id;
    // What a crash mid-build leaves: claimed by an instance that is gone, 40 % done.
    const dead = await s.ctx.services.reports.files.claim('dead-instance');
    expect(dead?.id).toBe(id);
    await s.ctx.db.updateTable('report_files').set({ progress: 40 }).where('id', '=', id).execute();
    const other = await startTestServer(engine, { shareWith: s, seed: false });
    try {
      await other.ctx.services.reports.runner.drain();
      expect((await files('owner_anna')).file.find((f) => f.id === id)).toMatchObject({ status: EXPORT_STATUS.EXPORTING, progress: 40 });
      s.clock.advance(REPORT_LEASE_MS + 1000);
      const f = await ready('owner_anna', id);
      expect(f).toMatchObject({ status: EXPORT_STATUS.READY, progress: 100 });
      const row = await s.ctx.db.selectFrom('report_files').select(['lease_owner', 'attempts']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.lease_owner).toBe(other.ctx.services.reports.runner.owner);
      expect(Number(row.attempts)).toBe(2);
      const u = await call<{ url: string }>('owner_anna', 'queryReportFileUrl', { id });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load((await download(u.dat!.url)).body as unknown as ArrayBuffer);
      // Yearly: one row per month, January … June (today is 2026-06-15).
      expect(wb.worksheets[0]!.getCell('A6').value).toBe('2026-01');
      expect(wb.worksheets[0]!.getCell('A11').value).toBe('2026-06');
      const may = [...Array(31).keys()].reduce((a, i) => a + inc(i + 1).energy_pv_total, 0);
      expect(wb.worksheets[0]!.getCell('B10').value).toBeCloseTo(may, 4);
    } finally {
      await other.stop();
    }
  });
});
