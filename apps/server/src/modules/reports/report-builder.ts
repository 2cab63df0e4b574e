import ExcelJS from 'exceljs';
import { ApiError, REPORT_ENERGY_KEYS, type ReportEnergyKey, type ReportPeriod } from '@sunwatch/protocol';
import type { Caller } from '../../context.js';
import type { Bucket, EnergyRepository } from '../energy/energy.repository.js';
import type { EnergyScope } from '../telemetry/rollups.js';
import type { DeviceCurvesService } from '../devices/device-curves.service.js';
import { addDays, dayOf, dayString, fmtTs } from '../../shared/local-time.js';
import { reportTexts, type ReportTexts } from './report-texts.js';
import { priceLike, type PlantIncomeSource } from '../../shared/plant-income.js';

/** What a report is about, resolved when it was asked for (report_files row). */
export interface ReportSpec {
  scope: 'plant' | 'device';
  type: ReportPeriod;
  date: string;
  /** Local days "YYYY-MM-DD" ("" for total: from the first data to `today`). */
  sdate: string;
  edate: string;
  today: string;
  tz: number;
  locale: string;
  /** Plant name, or device alias / SN. */
  target: string;
  /** Plant name of a device report ("" when none). */
  plantName: string;
  currency: string;
  /** Income per kWh generated (the plant's unitProfit; used when the tariff path is absent). */
  unitProfit: number;
  /**
   * The plant whose tariffs price the report (the plant, or the device's plant; issue 15): each
   * bucket's generated kWh at the average price of the kWh the tariff path measured in it.
   */
  projectId?: number;
  energyScope: EnergyScope;
  /** Devices whose samples a daily report adds (tuples for the data-details table). */
  sampleDevices: Array<{ pn: string; devcode: number; devaddr: number; sn: string; label: string }>;
}

/** One row of the report: its period key (day YYYYMMDD, month YYYYMM, year YYYY) and figures. */
export interface ReportRow {
  key: number;
  label: string;
  energy: Record<ReportEnergyKey, number>;
  income: number;
}

const round = (v: number, d: number) => {
  const f = 10 ** d;
  return Math.round(v * f) / f;
};

/** The bucket of each period and the row keys it lists (every bucket of the range, zeros included). */
export function reportBuckets(spec: Pick<ReportSpec, 'type' | 'sdate' | 'edate'>, firstDay: number, lastDay: number) {
  const from = spec.sdate ? dayOf(spec.sdate) : firstDay;
  const to = spec.edate ? dayOf(spec.edate) : lastDay;
  let bucket: Bucket;
  const keys: number[] = [];
  if (spec.type === 'yearly') {
    bucket = 'month';
    for (let m = Math.floor(from / 100); m <= Math.floor(to / 100); m = m % 100 === 12 ? m + 89 : m + 1) keys.push(m);
  } else if (spec.type === 'total') {
    bucket = 'year';
    for (let y = Math.floor(from / 10000); y <= Math.floor(to / 10000); y++) keys.push(y);
  } else {
    bucket = 'day';
    for (let d = from; d <= to; d = addDays(d, 1)) keys.push(d);
  }
  return { bucket, from, to, keys };
}

function keyLabel(key: number, bucket: Bucket): string {
  if (bucket === 'day') return dayString(key);
  if (bucket === 'month') return `${Math.floor(key / 100)}-${String(key % 100).padStart(2, '0')}`;
  return String(key);
}

/**
 * Builds report workbooks from the daily rollups (`EnergyRepository.series`, never a scan of the
 * samples) — one query per energy kind — and, for daily reports, the day's samples through the
 * data-details table of each device (queryDeviceDataOneDay), in the caller's language.
 */
export class ReportBuilder {
  constructor(
    private readonly deps: {
      energy: Pick<EnergyRepository, 'series'>;
      curves: () => Pick<DeviceCurvesService, 'dataOneDay'>;
      now: () => number;
      income?: () => Pick<PlantIncomeSource, 'buckets'> | undefined;
    },
  ) {}

  /** The report rows (and totals) of a spec. `progress(p)` is called after each step (0..1). */
  async rows(
    spec: ReportSpec,
    firstDay: number,
    progress: (p: number) => Promise<void>,
  ): Promise<{ rows: ReportRow[]; total: ReportRow; bucket: Bucket }> {
    const lastDay = dayOf(spec.today);
    const b = reportBuckets(spec, firstDay, lastDay);
    const series = new Map<ReportEnergyKey, Map<number, number>>();
    for (let i = 0; i < REPORT_ENERGY_KEYS.length; i++) {
      const kind = REPORT_ENERGY_KEYS[i]!;
      series.set(kind, await this.deps.energy.series(kind, spec.energyScope, b.from, b.to, b.bucket));
      await progress((i + 1) / REPORT_ENERGY_KEYS.length);
    }
    const inc = spec.projectId !== undefined ? this.deps.income?.() : undefined;
    const money = inc ? await inc.buckets(spec.projectId!, spec.tz, b.from, b.to, b.bucket) : undefined;
    const rows = b.keys.map((key): ReportRow => {
      const energy = Object.fromEntries(
        REPORT_ENERGY_KEYS.map((k) => [k, round(series.get(k)?.get(key) ?? 0, 4)]),
      ) as Record<ReportEnergyKey, number>;
      const m = money?.get(key);
      const income = money
        ? (priceLike(energy.generated, m, m?.fallback).get(spec.currency) ?? 0)
        : energy.generated * spec.unitProfit;
      return { key, label: keyLabel(key, b.bucket), energy, income: round(income, 2) };
    });
    const sum = Object.fromEntries(
      REPORT_ENERGY_KEYS.map((k) => [
        k,
        round(
          rows.reduce((s, r) => s + r.energy[k], 0),
          4,
        ),
      ]),
    ) as Record<ReportEnergyKey, number>;
    const total: ReportRow = {
      key: 0,
      label: '',
      energy: sum,
      income: round(
        rows.reduce((s, r) => s + r.income, 0),
        2,
      ),
    };
    return { rows, total, bucket: b.bucket };
  }

  /** The xlsx of a report. `caller` reads the daily samples with the caller's own access. */
  async workbook(
    spec: ReportSpec,
    caller: Caller,
    firstDay: number,
    progress: (p: number) => Promise<void>,
  ): Promise<Buffer> {
    const t = reportTexts(spec.locale);
    const samplesShare = spec.type === 'daily' && spec.sampleDevices.length > 0 ? 0.5 : 0;
    const { rows, total, bucket } = await this.rows(spec, firstDay, (p) => progress(p * (1 - samplesShare)));
    const wb = new ExcelJS.Workbook();
    wb.creator = 'Sunwatch';
    wb.created = new Date(this.deps.now());
    const ws = wb.addWorksheet(t.summary);
    this.writeSummary(ws, spec, t, rows, total, bucket);
    if (samplesShare > 0) {
      for (let i = 0; i < spec.sampleDevices.length; i++) {
        const d = spec.sampleDevices[i]!;
        let table: Awaited<ReturnType<DeviceCurvesService['dataOneDay']>> | undefined;
        try {
          table = await this.deps
            .curves()
            .dataOneDay(
              caller,
              { pn: d.pn, devcode: d.devcode, devaddr: d.devaddr, sn: d.sn, date: spec.sdate } as never,
              spec.locale,
            );
        } catch (e) {
          if (!(e instanceof ApiError) || e.code !== 12) throw e; // no samples that day
        }
        const name = `${t.samples} ${i + 1}`.slice(0, 31);
        const ss = wb.addWorksheet(name);
        ss.addRow([`${t.device}: ${d.label}`]).font = { bold: true };
        if (!table) {
          ss.addRow([t.noData]);
        } else {
          // Column 0 of the data-details table is the sample id (epoch ms): not in the report.
          ss.addRow(
            table.title.slice(1).map((c) => ('unit' in c && c.unit ? `${c.title} (${c.unit})` : c.title)),
          ).font = { bold: true };
          for (const r of table.row) ss.addRow(r.field.slice(1).map((v, ci) => (ci === 0 ? v : numeric(v))));
        }
        await progress(1 - samplesShare + (samplesShare * (i + 1)) / spec.sampleDevices.length);
      }
    }
    return Buffer.from(await wb.xlsx.writeBuffer());
  }

  private writeSummary(
    ws: ExcelJS.Worksheet,
    spec: ReportSpec,
    t: ReportTexts,
    rows: ReportRow[],
    total: ReportRow,
    bucket: Bucket,
  ) {
    const scopeLabel = spec.scope === 'plant' ? t.plant : t.device;
    const range = spec.sdate && spec.edate ? `${spec.sdate} – ${spec.edate}` : `– ${spec.today}`;
    // Row 1: the title; rows 2–3: what and when; row 5: headers; then one row per period; last: totals.
    ws.addRow([`${t.periods[spec.type]} · ${scopeLabel}: ${spec.target}`]).font = { bold: true, size: 14 };
    ws.addRow([t.period, range, spec.plantName ? `${t.plant}: ${spec.plantName}` : '']);
    ws.addRow([t.generatedAt, fmtTs(this.deps.now(), spec.tz)]);
    ws.addRow([]);
    const first = bucket === 'day' ? t.day : bucket === 'month' ? t.month : t.year;
    const cur = spec.currency || '';
    const header = ws.addRow([
      first,
      ...REPORT_ENERGY_KEYS.map((k) => `${t[k]} (kWh)`),
      cur ? `${t.income} (${cur})` : t.income,
    ]);
    header.font = { bold: true };
    for (const r of rows) ws.addRow([r.label, ...REPORT_ENERGY_KEYS.map((k) => r.energy[k]), r.income]);
    const tr = ws.addRow([t.total, ...REPORT_ENERGY_KEYS.map((k) => total.energy[k]), total.income]);
    tr.font = { bold: true };
    ws.views = [{ state: 'frozen', ySplit: 5 }];
    ws.getColumn(1).width = 14;
    for (let c = 2; c <= REPORT_ENERGY_KEYS.length + 2; c++) {
      const col = ws.getColumn(c);
      col.width = 20;
      col.numFmt = c === REPORT_ENERGY_KEYS.length + 2 ? '0.00' : '0.0000';
    }
  }
}

/** A cell: numbers as numbers (so spreadsheets can sum them), the rest as text. */
function numeric(v: string): string | number {
  return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
}
