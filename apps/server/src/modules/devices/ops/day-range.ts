import { ApiError, REPORT_MAX_DAYS } from '@sunwatch/protocol';
import { addDays, dayOf, dayStartMs, localDay } from '../../../shared/local-time.js';

/** A range of local days and its instants: [from, to) from the first day's midnight to the day after the last. */
export interface DayRange {
  fromDay: number;
  toDay: number;
  /** The days, in order. */
  days: number[];
  from: number;
  to: number;
}

/**
 * sdate..edate (local days of `tz`) checked as spec §5 asks of reports and the helpform tools:
 * sdate ≤ edate, at most `maxDays` days (31), nothing after today → else err 6.
 */
export function dayRange(sdate: string, edate: string, tz: number, now: number, maxDays = REPORT_MAX_DAYS): DayRange {
  const fromDay = dayOf(sdate);
  const toDay = dayOf(edate);
  if (toDay < fromDay) throw new ApiError(6, 'edate');
  if (toDay > localDay(now, tz)) throw new ApiError(6, 'edate');
  const days: number[] = [];
  for (let d = fromDay; d <= toDay; d = addDays(d, 1)) {
    days.push(d);
    if (days.length > maxDays) throw new ApiError(6, 'edate');
  }
  return { fromDay, toDay, days, from: dayStartMs(fromDay, tz), to: dayStartMs(addDays(toDay, 1), tz) };
}
