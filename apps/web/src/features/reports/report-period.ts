/**
 * The report export form's period (spec §3 "Report": daily, monthly, yearly, total, custom;
 * §5: a custom range of at most 31 days), checked in the browser before anything is sent with
 * the protocol's own rule (`checkReportPeriod`, the one the server applies) against the plant's
 * today; and the labels of a report file's period.
 */
import { checkReportPeriod, type AlarmExportKind, type ReportPeriod } from '@sunwatch/protocol';

export interface PeriodInput {
  type: ReportPeriod;
  /** daily "YYYY-MM-DD", monthly "YYYY-MM", yearly "YYYY" (from the pickers); '' when not picked. */
  date: string;
  /** custom: the first and last day; '' when not picked. */
  sdate: string;
  edate: string;
}

export type PeriodParams = { type: ReportPeriod; date?: string; sdate?: string; edate?: string };

/** `reports:period.*` keys of a refused period. */
export type PeriodErrorKey = 'empty' | 'invalid' | 'tooLong';

export type PeriodCheck = { ok: true; params: PeriodParams; sdate: string; edate: string } | { ok: false; key: PeriodErrorKey };

export function checkPeriod(p: PeriodInput, today: string): PeriodCheck {
  if (p.type === 'custom' ? !p.sdate || !p.edate : p.type !== 'total' && !p.date) return { ok: false, key: 'empty' };
  const r = checkReportPeriod({ type: p.type, date: p.date || undefined, sdate: p.sdate || undefined, edate: p.edate || undefined }, today);
  if (!r.ok) return { ok: false, key: r.err === 13 ? 'tooLong' : 'invalid' };
  const params: PeriodParams =
    p.type === 'custom' ? { type: 'custom', sdate: r.sdate, edate: r.edate } : p.type === 'total' ? { type: 'total' } : { type: p.type, date: r.date };
  return { ok: true, params, sdate: r.sdate, edate: r.edate };
}

/** The period of a report file as shown in the history: "2026-10", "2026-10-01 ~ 2026-10-20", "". */
export function periodText(f: { type: ReportPeriod | AlarmExportKind; date: string; sdate: string; edate: string }): string {
  if (f.type === 'custom') return `${f.sdate} ~ ${f.edate}`;
  if (f.type === 'total') return f.sdate && f.edate ? `${f.sdate} ~ ${f.edate}` : '';
  return f.date;
}

/** "12.3 KB" of a byte count. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
