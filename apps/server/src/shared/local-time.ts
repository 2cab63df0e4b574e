import { ApiError } from '@sunwatch/protocol';

/**
 * Local-time helpers shared by every module (the one definition of a local day): `tz` is seconds
 * east of UTC (the plant's, else the datalogger's). Pure functions; the current instant always
 * comes from the injected clock (`Clock`, `ctx.now`), never from `Date.now()`.
 */

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** "YYYY-MM-DD HH:MM:SS" of an instant in the timezone. */
export function fmtTs(ms: number, tz: number): string {
  const d = new Date(ms + tz * 1000);
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

/** The local day YYYYMMDD of an instant. */
export function localDay(ms: number, tz: number): number {
  const d = new Date(ms + tz * 1000);
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/** Epoch ms of local midnight starting YYYYMMDD. */
export function dayStartMs(day: number, tz: number): number {
  const y = Math.floor(day / 10000);
  const m = Math.floor(day / 100) % 100;
  const d = day % 100;
  return Date.UTC(y, m - 1, d) - tz * 1000;
}

/** "YYYY-MM-DD" → YYYYMMDD (err 6 when not a calendar date). */
export function dayOf(s: string): number {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(s.trim());
  if (!m) throw new ApiError(6, 'date');
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) throw new ApiError(6, 'date');
  return y * 10000 + mo * 100 + d;
}

/** Epoch ms of a local "YYYY-MM-DD[ HH:MM[:SS]]". */
export function parseLocal(s: string, tz: number): number {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(s.trim());
  if (!m) throw new ApiError(6, 'date');
  dayOf(s);
  return (
    Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)) -
    tz * 1000
  );
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** YYYYMMDD → "YYYY-MM-DD 00:00:00". */
export function dayTs(day: number): string {
  return `${Math.floor(day / 10000)}-${pad(Math.floor(day / 100) % 100)}-${pad(day % 100)} 00:00:00`;
}

/** YYYYMMDD → "YYYY-MM-DD". */
export function dayString(day: number): string {
  return dayTs(day).slice(0, 10);
}

/** Adds n days to YYYYMMDD. */
export function addDays(day: number, n: number): number {
  const t = Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, day % 100) + n * 86400000;
  const d = new Date(t);
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}
