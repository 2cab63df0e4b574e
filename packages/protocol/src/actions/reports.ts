import { z } from 'zod';
import { defineAction, result } from './define.js';
import { actionParams, page, pageSize, wireInt } from './common.js';
import { deviceTuple, wireDay } from './telemetry-params.js';
import { REPORT_PERIODS, type ReportPeriod, type ReportScope } from '../reports/periods.js';
import type { AlarmExportKind } from './alarm-export-params.js';
import { EXPORT_HISTORY_ORIGINS, type ExportHistoryKind, type ExportHistoryOrigin } from './report-history-params.js';

/**
 * Reports and exports (issue 11; spec §2 "report export", §3 "Report" / "Export file", §4
 * "Export file", §5 "Devices and reports": custom range ≤ 31 days). A report covers one device
 * (its tuple `pn, devcode, devaddr, sn` or `sn` alone, as devices.ts) or one plant (`plantid`:
 * the sum of its devices in the plant's time zone) over one period:
 * - `daily` (`date` "YYYY-MM-DD": one row per hour, plus a samples sheet),
 * - `monthly` (`date` "YYYY-MM": one row per day),
 * - `yearly` (`date` "YYYY": one row per month),
 * - `total` (no date: one row per year since the first data),
 * - `custom` (`sdate`..`edate` local days, ≤ 31 days: one row per day; err 13 beyond).
 * Each row: energy generated, charged, discharged, fed in (sold), bought, used (kWh) and income
 * (the plant's price and currency). The xlsx is built by a durable background job (it survives a
 * restart); the caller lists its own report files with progress and downloads a ready one through
 * a signed, expiring address (route `/export/report/:id?exp&sig`, the scheme of issue 10).
 * Headers, units and titles are in the caller's language (`lang`/`i18n`).
 *
 * These names sit beside issue 10's device sample export (exportDeviceReport, webQueryExportFiles,
 * queryExportFileUrl, delExportFile), which they do not replace.
 */

/** The period parameters every report export takes; the server checks which ones `type` needs (err 6). */
const periodParams = {
  type: z.enum(REPORT_PERIODS),
  /** daily "YYYY-MM-DD", monthly "YYYY-MM", yearly "YYYY"; absent for total and custom. */
  date: z
    .string()
    .trim()
    .max(10)
    .regex(/^\d{4}(-\d{1,2}(-\d{1,2})?)?$/)
    .optional(),
  /** custom only: first and last local day (≤ 31 days, not in the future). */
  sdate: wireDay().optional(),
  edate: wireDay().optional(),
};

export interface ReportFileRow {
  /** Unique within `origin` (a device export and a report file may share an id). */
  id: number;
  /** Added in session 26 (one export history): which list holds the file; absent means `report`. */
  origin: ExportHistoryOrigin;
  /** Added in session 26: plant report, device report or alarm list. */
  kind: ExportHistoryKind;
  /** File name, e.g. "Plant A_monthly_2026-10.xlsx". */
  name: string;
  /** Bytes (0 until ready). */
  size: number;
  /** EXPORT_STATUS: 0 exporting (queued or building), 1 downloadable, 2 failed. */
  status: number;
  /** 0..100 while exporting; 100 when ready. */
  progress: number;
  /** Creation time, "YYYY-MM-DD HH:MM:SS" UTC. */
  gts: string;
  /** Finish time ("" while exporting). */
  fts: string;
  /** 'alarms' for an alarm list export (alarm-export.ts); 'device' for a device export. */
  scope: ReportScope | AlarmExportKind;
  /** A device export (origin `export`) is a `custom` range (`sdate`..`edate`). */
  type: ReportPeriod | AlarmExportKind;
  /** The period as asked ("2026-10", "2026", "" for total) and the local days it covers. */
  date: string;
  sdate: string;
  edate: string;
  /** Plant id (plant scope, or the device's plant; 0 when none). */
  plantid: number;
  /** Plant name or device alias/SN, as in the title row. */
  target: string;
  /** Device scope: the device tuple ("" / 0 for a plant). */
  pn: string;
  sn: string;
  devcode: number;
  devaddr: number;
}

export const exportPlantReport = defineAction({
  name: 'exportPlantReport',
  summary:
    "Queues an xlsx energy and income report of the plant (sum of its devices, the plant's time zone) for the period; answers the report file {…, status: 0, progress: 0}. err 6 bad period, 13 custom range > 31 days, 260 unknown or foreign plant.",
  params: actionParams({ plantid: wireInt().min(1), ...periodParams }),
  access: { auth: 'signed', permission: 'device_manag', button: 'device_export' },
  mutates: true,
  result: result<ReportFileRow>(),
});

export const exportDeviceEnergyReport = defineAction({
  name: 'exportDeviceEnergyReport',
  summary:
    "Queues an xlsx energy and income report of one device for the period (the device's time zone); daily reports add the day's samples. Answers the report file {…, status: 0}. err 6 bad period, 13 custom range > 31 days, 258 unknown or foreign device.",
  params: actionParams({ ...deviceTuple, ...periodParams }),
  access: { auth: 'signed', permission: 'device_manag', button: 'device_export' },
  mutates: true,
  result: result<ReportFileRow>(),
});

export const webQueryReportFiles = defineAction({
  name: 'webQueryReportFiles',
  summary:
    "The caller's one export history, newest first, paged on the server across report files (plant and device reports, alarm lists) and issue 10's device exports (each row has `origin` and `kind`); optional `status` filter: {total,page,pagesize,file:[…]}.",
  params: actionParams({
    status: wireInt().min(0).max(2).optional(),
    page: page(),
    pagesize: pageSize(),
  }),
  access: { auth: 'signed', permission: null }, // the caller's own files: its export history needs no module
  mutates: false,
  result: result<{ total: number; page: number; pagesize: number; file: ReportFileRow[] }>(),
});

export const queryReportFileUrl = defineAction({
  name: 'queryReportFileUrl',
  summary:
    'A signed download address of one of the caller’s ready report files (or, with `origin: export`, device exports), valid 5 minutes: {url, name, expire (epoch s)}. err 12 while exporting, failed or unknown.',
  params: actionParams({ id: wireInt().min(1), origin: z.enum(EXPORT_HISTORY_ORIGINS).optional() }),
  access: { auth: 'signed', permission: null }, // the caller's own files: its export history needs no module
  mutates: false,
  result: result<{ url: string; name: string; expire: number }>(),
});

export const delReportFile = defineAction({
  name: 'delReportFile',
  summary:
    'Deletes one of the caller’s report files (or, with `origin: export`, device exports): record and stored file; an export in progress is abandoned. err 12 when unknown.',
  params: actionParams({ id: wireInt().min(1), origin: z.enum(EXPORT_HISTORY_ORIGINS).optional() }),
  access: { auth: 'signed', permission: null }, // the caller's own files: its export history needs no module
  mutates: true,
  result: result<undefined>(),
});
