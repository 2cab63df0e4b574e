import fs from 'node:fs';
import type { Selectable } from 'kysely';
import ExcelJS from 'exceljs';
import {
  ALARM_EXPORT_KIND,
  ALARM_EXPORT_MAX_ROWS,
  ApiError,
  type AlarmRow,
  type Catalogue,
  type ParsedParamsOf,
  type ReportFileRow,
} from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { ReportFilesTable } from '../../db/schema-reports.js';
import { fmtTs } from '../../shared/local-time.js';
import type { AlarmsService } from '../alarms/alarms.service.js';
import type { PlantsService } from '../plants/plants.service.js';
import { alarmExportTexts, type AlarmExportTexts } from './alarm-export-texts.js';
import type { ReportFilesService } from './report-files.service.js';

type ExportParams = ParsedParamsOf<Catalogue['exportPlantsWarning']>;
type Row = Selectable<ReportFilesTable>;

/** The filters an export keeps (declared params of exportPlantsWarning, without the common ones). */
const FILTER_KEYS = [
  'handle',
  'level',
  'devtype',
  'atype',
  'sdate',
  'edate',
  'state',
  'hidden',
  'code',
  'id',
  'plantid',
  'pname',
  'province',
  'city',
  'county',
  'town',
  'pn',
  'sn',
  'search',
  'uid',
  'tz',
] as const satisfies ReadonlyArray<keyof ExportParams>;

/** Alarms read per batch while the file is written. */
export const ALARM_EXPORT_BATCH = 1000;

/** "UTC+01:00" of seconds east of UTC. */
export function utcOffset(tz: number): string {
  const sign = tz < 0 ? '-' : '+';
  const a = Math.abs(tz);
  return `UTC${sign}${String(Math.floor(a / 3600)).padStart(2, '0')}:${String(Math.floor((a % 3600) / 60)).padStart(2, '0')}`;
}

/**
 * A wire time "YYYY-MM-DD HH:MM:SS" (already in the plant's timezone) as a spreadsheet date: the
 * wall-clock time, so the cell shows exactly the plant's local time and sorts as a date.
 */
export function wallClock(ts: string): Date | null {
  if (!ts) return null;
  return new Date(`${ts.replace(' ', 'T')}Z`);
}

/** The cells of one alarm, in the order of `headers`. */
export function alarmCells(a: AlarmRow, t: AlarmExportTexts): Array<string | number | Date | null> {
  const start = wallClock(a.gts);
  const end = wallClock(a.ets);
  return [
    a.id,
    t.levels[a.level as 0 | 1 | 2 | 3] ?? String(a.level),
    a.code,
    a.desc,
    t.atype[a.atype] ?? a.atype,
    a.pname,
    a.address,
    a.usr,
    a.pn,
    a.sn,
    a.devalias,
    start,
    end,
    start && end ? Math.round((end.getTime() - start.getTime()) / 60_000) : null,
    t.status[a.handle === 1 ? 1 : 0],
    a.handleUsr,
    wallClock(a.handleTs),
    utcOffset(a.timezone),
  ];
}

export function headers(t: AlarmExportTexts): string[] {
  const c = t.col;
  return [
    c.id,
    c.type,
    c.code,
    c.desc,
    c.deviceType,
    c.plant,
    c.address,
    c.owner,
    c.pn,
    c.sn,
    c.device,
    c.occurred,
    c.ended,
    c.durationMin,
    c.status,
    c.handledBy,
    c.handledAt,
    c.timezone,
  ];
}
const DATE_COLUMNS = [12, 13, 17];

/**
 * The alarm list export (issue 11): `exportPlantsWarning` checks the filters and the caller's
 * scope through the alarm module (the fleet list's own filter builder), refuses an empty (264) or
 * too large (13) result, and queues a report_files row of kind `alarms` whose filters are kept as
 * JSON in its `date` column; the reports runner then calls `write`, which walks the same query in
 * keyset batches with the owner's access re-read and streams the xlsx to disk with progress.
 */
export class AlarmExportService {
  /** Most alarms one export may hold (ALARM_EXPORT_MAX_ROWS; lowered by tests). */
  maxRows = ALARM_EXPORT_MAX_ROWS;

  constructor(
    private readonly deps: {
      alarms: () => Pick<AlarmsService, 'fleetExport'>;
      plants: () => Pick<PlantsService, 'require'>;
      files: Pick<ReportFilesService, 'queue'>;
      now: () => number;
    },
  ) {}

  /** exportPlantsWarning: checks and queues; the file is built in the background. */
  async start(caller: Caller, p: ExportParams, locale: string): Promise<ReportFileRow> {
    const filters: Record<string, unknown> = {};
    for (const k of FILTER_KEYS) if (p[k] !== undefined) filters[k] = p[k];
    const exp = await this.deps.alarms().fleetExport(caller, filters as ExportParams);
    const n = await exp.count();
    if (n === 0) throw new ApiError(264);
    if (n > this.maxRows) throw new ApiError(13, String(this.maxRows));
    const t = alarmExportTexts(locale);
    const plant = p.plantid !== undefined ? await this.deps.plants().require(caller, p.plantid) : undefined;
    const stamp = fmtTs(this.deps.now(), p.tz ?? 0)
      .replace(/[-:]/g, '')
      .replace(' ', '-')
      .slice(0, 13);
    return this.deps.files.queue(caller, {
      scope: ALARM_EXPORT_KIND,
      type: ALARM_EXPORT_KIND,
      date: JSON.stringify(filters),
      sdate: p.sdate ?? '',
      edate: p.edate ?? '',
      project_id: plant ? Number(plant.id) : null,
      device_id: null,
      target: plant?.name ?? '',
      pn: p.pn ?? '',
      sn: p.sn ?? '',
      devcode: 0,
      devaddr: 0,
      locale,
      name: `${plant ? `${plant.name}_` : ''}${t.title}_${stamp}`,
    });
  }

  /**
   * Writes the xlsx of a claimed alarm export to `file` (streamed; numbers as numbers, times as
   * dates in each plant's timezone, descriptions translated now). `progress(p)` with p in 0..1.
   */
  async write(row: Row, caller: Caller, file: string, progress: (p: number) => Promise<void>): Promise<void> {
    const filters = JSON.parse(row.date) as ExportParams;
    const exp = await this.deps.alarms().fleetExport(caller, filters);
    const total = await exp.count();
    if (total > this.maxRows) throw new ApiError(13, String(this.maxRows));
    const t = alarmExportTexts(row.locale);
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false });
    wb.creator = 'Sunwatch';
    wb.created = new Date(this.deps.now());
    try {
      const ws = wb.addWorksheet(t.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
      const head = headers(t);
      ws.columns = head.map((h, i) => ({
        header: h,
        width: i === 3 ? 40 : DATE_COLUMNS.includes(i + 1) ? 20 : 16,
        ...(DATE_COLUMNS.includes(i + 1) ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } } : {}),
      }));
      ws.getRow(1).font = { bold: true };
      ws.getRow(1).commit();
      ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: head.length } };
      let done = 0;
      for await (const batch of exp.batches(row.locale, ALARM_EXPORT_BATCH)) {
        for (const a of batch) {
          if (done >= this.maxRows) break;
          ws.addRow(alarmCells(a, t)).commit();
          done++;
        }
        await progress(total > 0 ? Math.min(1, done / total) : 1);
        if (done >= this.maxRows) break;
      }
      ws.commit();
      const info = wb.addWorksheet(t.info);
      info.addRow([t.title]).font = { bold: true, size: 14 };
      info.addRow([t.created, `${fmtTs(this.deps.now(), filters.tz ?? 0)} (${utcOffset(filters.tz ?? 0)})`]);
      info.addRow([t.rows, done]);
      const keys = Object.keys(filters);
      info.addRow([t.filters, keys.length === 0 ? t.all : '']);
      for (const k of keys) {
        const v = (filters as Record<string, unknown>)[k];
        info.addRow([k, Array.isArray(v) ? v.join(',') : String(v)]);
      }
      info.commit();
      await wb.commit();
    } catch (e) {
      await fs.promises.rm(file, { force: true });
      throw e;
    }
  }
}
