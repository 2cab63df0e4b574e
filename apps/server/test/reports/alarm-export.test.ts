import ExcelJS from 'exceljs';
import { alarmText, EXPORT_STATUS, type AuthDat, type ReportFileRow } from '@sunwatch/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDatalogger, insertDevice, insertPlant } from '../factories/telemetry-rows.js';
import { engines, FIXED_NOW, startTestServer, type TestServer } from '../harness.js';

/**
 * The alarm list export (exportPlantsWarning) end to end on SQLite and PostgreSQL: the fleet
 * list's filters and scope (a dealer's file holds none of another dealer's alarms), a queued job
 * of the reports runner listed in the export history with progress, the signed download checked
 * cell by cell in two languages (descriptions translated at export time, times in the plant's
 * timezone as dates, numbers as numbers), nothing to export (264) and the row limit (13).
 */

const PASSWORDS = {
  owner_anna: 'Owner_2026',
  dealer_north: 'Dealer_2026',
  dealer_south: 'Dealer_2026',
  north_ops: 'SubAdmin_2026',
} as const;
type Who = keyof typeof PASSWORDS;
type Files = { total: number; file: ReportFileRow[] };
const TZ_ANNA = 7200;
const TZ_BEN = -18_000;
const MIN = 60_000;
/** devcode 2341 fault codes: 2 "Over temperature" (fault), and a warning-level code. */
const FAULT = 2;

async function until<T>(what: string, f: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The wall-clock time of an instant in a timezone, as exceljs reads a date cell back. */
const wall = (ms: number, tz: number) => new Date(Math.floor((ms + tz * 1000) / 1000) * 1000);

describe.each(engines)('alarm list export ($name)', (engine) => {
  let s: TestServer;
  const sessions: Partial<Record<Who, AuthDat>> = {};
  let plantAnna = 0;
  let plantBen = 0;
  const ids = { annaFaultEnded: 0, annaFaultOpen: 0, annaWarning: 0, benFault: 0 };
  const call = <T = unknown>(who: Who, action: string, params: Record<string, string | number> = {}) =>
    s.call<T>(sessions[who]!, action, params);

  /** Starts an export, waits for it and answers the downloaded workbook. */
  async function exportAndRead(who: Who, params: Record<string, string | number>) {
    const start = await call<ReportFileRow>(who, 'exportPlantsWarning', params);
    expect(start.err, JSON.stringify(start)).toBe(0);
    const id = start.dat!.id;
    const row = await until(`alarm export ${id}`, async () => {
      const f = (await call<Files>(who, 'webQueryReportFiles', { pagesize: 50 })).dat!.file.find((x) => x.id === id);
      return f && f.status !== EXPORT_STATUS.EXPORTING ? f : undefined;
    });
    expect(row.status).toBe(EXPORT_STATUS.READY);
    const u = await call<{ url: string; name: string }>(who, 'queryReportFileUrl', { id });
    expect(u.err).toBe(0);
    const res = await fetch(s.url + u.dat!.url);
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const ws = wb.worksheets[0]!;
    const rows: unknown[][] = [];
    ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    return { start: start.dat!, row, rows, wb };
  }

  beforeAll(async () => {
    s = await startTestServer(engine, { now: FIXED_NOW });
    for (const [usr, pwd] of Object.entries(PASSWORDS)) {
      const r = await s.login(usr, pwd);
      expect(r.err, usr).toBe(0);
      sessions[usr as Who] = r.dat!;
    }
    const db = s.ctx.db;
    const now = s.clock.now();
    const ben = (await s.ctx.repos.accounts.findByUsr('owner_ben'))!;
    plantAnna = await insertPlant(db, {
      owner_id: sessions.owner_anna!.uid,
      name: 'Export Roof',
      now,
      tz_offset: TZ_ANNA,
    });
    plantBen = await insertPlant(db, { owner_id: ben.id, name: 'Export Barn', now, tz_offset: TZ_BEN });
    const mk = async (pn: string, sn: string, owner: number, plant: number, tz: number, alias: string) => {
      const dl = await insertDatalogger(db, { pn, now, owner_id: owner, project_id: plant, tz_offset: tz });
      const dev = await insertDevice(db, {
        datalogger_id: dl,
        pn,
        devcode: 2341,
        devaddr: 1,
        sn,
        now,
        project_id: plant,
        alias,
      });
      return { dl, dev, owner };
    };
    const a = await mk('AXPA0000000001', 'AX-SN-ANNA', sessions.owner_anna!.uid, plantAnna, TZ_ANNA, 'Roof inverter');
    const b = await mk('AXPB0000000001', 'AX-SN-BEN', ben.id, plantBen, TZ_BEN, 'Barn inverter');
    const alarm = async (
      d: { dl: number; dev: number; owner: number },
      level: number,
      code: number,
      start: number,
      end: number | null,
    ) =>
      Number(
        (
          await db
            .insertInto('alarms')
            .values({
              datalogger_id: d.dl,
              device_id: d.dev,
              level,
              code,
              description: 'stored text is never exported',
              started_at: start,
              ended_at: end,
              handled: 0,
              owner_id: d.owner,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    ids.annaFaultEnded = await alarm(a, 2, FAULT, FIXED_NOW - 90 * MIN, FIXED_NOW - 45 * MIN);
    ids.annaWarning = await alarm(a, 0, 40, FIXED_NOW - 60 * MIN, null);
    ids.annaFaultOpen = await alarm(a, 2, FAULT, FIXED_NOW - 30 * MIN, null);
    ids.benFault = await alarm(b, 2, FAULT, FIXED_NOW - 20 * MIN, null);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('queues a job listed in the export history, then a signed download: German cells of the filtered list', async () => {
    const runner = s.ctx.services.reports.runner;
    await runner.stop(); // hold the queue: the request answers with a queued export
    const start = await call<ReportFileRow>('dealer_north', 'exportPlantsWarning', { level: '2', lang: 'de_DE' });
    expect(start.err).toBe(0);
    expect(start.dat).toMatchObject({ status: EXPORT_STATUS.EXPORTING, progress: 0, scope: 'alarms', type: 'alarms' });
    expect(start.dat!.name).toMatch(/^Alarmliste_\d{8}-\d{4}\.xlsx$/);
    const listed = (await call<Files>('dealer_north', 'webQueryReportFiles', { pagesize: 50 })).dat!.file;
    expect(listed[0]).toMatchObject({ id: start.dat!.id, status: EXPORT_STATUS.EXPORTING, type: 'alarms' });
    // another account never lists, addresses or deletes it
    expect(
      (await call<Files>('dealer_south', 'webQueryReportFiles', { pagesize: 50 })).dat!.file.map((f) => f.id),
    ).not.toContain(start.dat!.id);
    expect((await call('dealer_south', 'queryReportFileUrl', { id: start.dat!.id })).err).toBe(12);
    runner.start();

    const { rows } = await (async () => {
      const id = start.dat!.id;
      await until('export ready', async () => {
        const f = (await call<Files>('dealer_north', 'webQueryReportFiles', { pagesize: 50 })).dat!.file.find(
          (x) => x.id === id,
        );
        return f?.status === EXPORT_STATUS.READY ? f : undefined;
      });
      const u = await call<{ url: string }>('dealer_north', 'queryReportFileUrl', { id });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(await (await fetch(s.url + u.dat!.url)).arrayBuffer());
      const out: unknown[][] = [];
      wb.worksheets[0]!.eachRow((r) => out.push((r.values as unknown[]).slice(1)));
      expect(wb.worksheets[0]!.name).toBe('Alarme');
      return { rows: out };
    })();
    expect(rows[0]).toEqual([
      'Alarm-ID',
      'Typ',
      'Code',
      'Beschreibung',
      'Gerätetyp',
      'Anlage',
      'Adresse',
      'Eigentümer',
      'Datenlogger-PN',
      'Geräte-SN',
      'Gerät',
      'Aufgetreten',
      'Beendet',
      'Dauer (min)',
      'Status',
      'Bearbeitet von',
      'Bearbeitet am',
      'Zeitzone',
    ]);
    // dealer_north sees anna's plant only; the level filter leaves out her warning: newest first
    expect(rows.slice(1).map((r) => r[0])).toEqual([ids.annaFaultOpen, ids.annaFaultEnded]);
    const desc = alarmText(2341, FAULT, 'de_DE', 2);
    expect(desc).not.toBe(alarmText(2341, FAULT, 'en_US', 2));
    expect(rows[2]).toEqual([
      ids.annaFaultEnded,
      'Störung',
      FAULT,
      desc,
      'Energiespeicher-Steuerung',
      'Export Roof',
      'Shenzhen, China',
      'owner_anna',
      'AXPA0000000001',
      'AX-SN-ANNA',
      'Roof inverter',
      wall(FIXED_NOW - 90 * MIN, TZ_ANNA),
      wall(FIXED_NOW - 45 * MIN, TZ_ANNA),
      45,
      'Unbearbeitet',
      undefined,
      undefined,
      'UTC+02:00',
    ]);
    expect(rows[2]!.length).toBe(18);
    // the ongoing one has no end and no duration
    expect(rows[1]![12]).toBeUndefined();
    expect(rows[1]![13]).toBeUndefined();
  });

  it('a second language, the other dealer and the processed state: each file holds only what its caller sees', async () => {
    await call('dealer_south', 'ignorePlantWarning', { id: ids.benFault });
    const south = await exportAndRead('dealer_south', { lang: 'zh_CN' });
    expect(south.rows[0]!.slice(0, 4)).toEqual(['告警ID', '类型', '代码', '描述']);
    // none of anna's (dealer_north's) alarms, whatever the filters
    expect(south.rows.slice(1).map((r) => r[0])).toEqual([ids.benFault]);
    const r = south.rows[1]!;
    expect(r[1]).toBe('故障');
    expect(r[3]).toBe(alarmText(2341, FAULT, 'zh_CN', 2));
    expect(r[11]).toEqual(wall(FIXED_NOW - 20 * MIN, TZ_BEN));
    expect(r[14]).toBe('已处理');
    expect(r[15]).toBe('dealer_south');
    expect(r[16]).toEqual(wall(FIXED_NOW, TZ_BEN));
    expect(r[17]).toBe('UTC-05:00');
    // the info sheet counts the rows
    const info: unknown[][] = [];
    south.wb.worksheets[1]!.eachRow((x) => info.push((x.values as unknown[]).slice(1)));
    expect(info[2]).toEqual(['告警数', 1]);
    // a foreign plant is refused like a missing one; the same filter of its own plant works
    expect((await call('dealer_south', 'exportPlantsWarning', { plantid: plantAnna })).err).toBe(260);
    const own = await exportAndRead('owner_anna', { plantid: plantAnna, state: 1, lang: 'en_US' });
    expect(own.rows.slice(1).map((x) => x[0])).toEqual([ids.annaFaultOpen, ids.annaWarning]);
    expect(own.start.name).toMatch(/^Export Roof_Alarm list_/);
    expect(own.rows[2]![1]).toBe('Warning');
  });

  it("a sub-administrator whose bound role has alarm management and the export button, but no device management, exports and downloads its own file", async () => {
    const role = await call<{ rid: number }>('dealer_north', 'addRole', {
      name: 'Alarm export only',
      functions: 'alarm_manag,alarm_list,alarm_export_file',
    });
    expect(role.err, JSON.stringify(role)).toBe(0);
    const ops = (await s.ctx.repos.accounts.findByUsr('north_ops'))!;
    expect((await call('dealer_north', 'assignRole', { uid: ops.id, rid: role.dat!.rid })).err).toBe(0);
    // the bound role decides: no device management, so the device pages' actions are refused …
    expect((await call('north_ops', 'queryDeviceWarning', { pn: 'X', devcode: 1, devaddr: 1, sn: 'X' })).err).toBe(11);
    // … while its alarm export and its own export history work
    const file = await exportAndRead('north_ops', { lang: 'en_US' });
    expect(file.rows.slice(1).map((r) => r[0])).toContain(ids.annaFaultOpen);
    expect(file.rows.slice(1).map((r) => r[0])).not.toContain(ids.benFault);
    // its history holds only its own files
    const mine = (await call<Files>('north_ops', 'webQueryReportFiles', { pagesize: 50 })).dat!;
    expect(mine.file.map((f) => f.id)).toEqual([file.start.id]);
    expect((await call('north_ops', 'delReportFile', { id: file.start.id })).err).toBe(0);
  });

  it('nothing to export answers 264; more alarms than the limit answers 13 and queues nothing', async () => {
    const before = (await call<Files>('owner_anna', 'webQueryReportFiles', { pagesize: 50 })).dat!.total;
    expect((await call('owner_anna', 'exportPlantsWarning', { level: '1' })).err).toBe(264);
    expect((await call('owner_anna', 'exportPlantsWarning', { sdate: '2026-06-01' })).err).toBe(6);
    const svc = s.ctx.services.reports.alarmExport;
    const max = svc.maxRows;
    svc.maxRows = 2;
    try {
      expect((await call('owner_anna', 'exportPlantsWarning', {})).err).toBe(13);
      expect((await call('owner_anna', 'exportPlantsWarning', { level: '2' })).err).toBe(0);
    } finally {
      svc.maxRows = max;
    }
    expect((await call<Files>('owner_anna', 'webQueryReportFiles', { pagesize: 50 })).dat!.total).toBe(before + 1);
  });
});
