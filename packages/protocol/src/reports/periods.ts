import { LIMITS } from '../rules.js';

/**
 * Report periods and their rules (issue 11, spec §3 "Report": daily/monthly/yearly/total/custom;
 * §5: a report range is at most 31 days). One definition for server and web.
 */
export const REPORT_PERIODS = ['daily', 'monthly', 'yearly', 'total', 'custom'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

export const REPORT_SCOPES = ['plant', 'device'] as const;
export type ReportScope = (typeof REPORT_SCOPES)[number];

/** Longest custom report, in local days (spec §5; rules.ts LIMITS). */
const MAX_DAYS = LIMITS.REPORT_MAX_DAYS;

/** The energy columns of a report row, in sheet order (kWh). */
export const REPORT_ENERGY_KEYS = ['generated', 'charged', 'discharged', 'sold', 'bought', 'used'] as const;
export type ReportEnergyKey = (typeof REPORT_ENERGY_KEYS)[number];

/** A period as the caller asked for it, checked: which local days it covers ("YYYY-MM-DD"). */
export type ReportPeriodCheck =
  | { ok: true; type: ReportPeriod; date: string; sdate: string; edate: string }
  | { ok: false; err: 6 | 13 };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}
function pad(n: number): string {
  return String(n).padStart(2, '0');
}
function validDay(s: string): boolean {
  const m = DAY.exec(s);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo);
}
function dayIndex(s: string): number {
  return Math.round(Date.parse(`${s}T00:00:00Z`) / 86_400_000);
}
function normalise(s: string): string {
  return s.replace(/-(\d)(?=-|$)/g, '-0$1');
}

/**
 * Checks a period against `today` (the local day of the plant or device, "YYYY-MM-DD"): err 6 for
 * a missing or malformed date, a reversed range, a period that starts in the future or a custom range that ends after today; err 13 for
 * a custom range longer than LIMITS.REPORT_MAX_DAYS (31). `total` answers empty sdate/edate (the server takes
 * the first and last data). Periods that run past today end today.
 */
export function checkReportPeriod(
  p: { type: ReportPeriod; date?: string | undefined; sdate?: string | undefined; edate?: string | undefined },
  today: string,
): ReportPeriodCheck {
  const date = p.date ? normalise(p.date) : '';
  const clip = (e: string) => (e > today ? today : e);
  switch (p.type) {
    case 'daily': {
      if (!validDay(date) || date > today) return { ok: false, err: 6 };
      return { ok: true, type: 'daily', date, sdate: date, edate: date };
    }
    case 'monthly': {
      const m = /^(\d{4})-(\d{2})$/.exec(date);
      if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return { ok: false, err: 6 };
      const sdate = `${date}-01`;
      if (sdate > today) return { ok: false, err: 6 };
      return { ok: true, type: 'monthly', date, sdate, edate: clip(`${date}-${pad(daysInMonth(Number(m[1]), Number(m[2])))}`) };
    }
    case 'yearly': {
      if (!/^\d{4}$/.test(date)) return { ok: false, err: 6 };
      const sdate = `${date}-01-01`;
      if (sdate > today) return { ok: false, err: 6 };
      return { ok: true, type: 'yearly', date, sdate, edate: clip(`${date}-12-31`) };
    }
    case 'total':
      return { ok: true, type: 'total', date: '', sdate: '', edate: '' };
    case 'custom': {
      const s = p.sdate ? normalise(p.sdate) : '';
      const e = p.edate ? normalise(p.edate) : '';
      if (!validDay(s) || !validDay(e) || e < s || e > today) return { ok: false, err: 6 };
      if (dayIndex(e) - dayIndex(s) + 1 > MAX_DAYS) return { ok: false, err: 13 };
      return { ok: true, type: 'custom', date: '', sdate: s, edate: e };
    }
  }
}
