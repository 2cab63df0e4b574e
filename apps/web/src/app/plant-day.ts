/**
 * Dates a user picks are the plant's dates. The server reads every `date`/`sdate`/`edate` of a
 * device or plant call as a calendar day of the plant's timezone (queryDeviceInfo `timezone`,
 * queryPlantInfo `address.timezone`, seconds east of UTC), so a picker's default "today" and
 * its "no future days" limit must be the plant's today — never the browser's, which differs
 * around midnight and for anyone in another timezone than the plant.
 */
import dayjs, { type Dayjs } from 'dayjs';

const pad = (n: number) => String(n).padStart(2, '0');

/** The plant's calendar date "YYYY-MM-DD" at the instant `now` (epoch ms). */
export function plantToday(tzSeconds: number, now: number = Date.now()): string {
  const d = new Date(now + tzSeconds * 1000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/**
 * The plant's today as a picker value: that calendar date at the browser's local midnight
 * (antd pickers show and `format()` it as exactly that date, whatever the browser's zone).
 */
export function plantTodayDayjs(tzSeconds: number, now: number = Date.now()): Dayjs {
  return dayjs(plantToday(tzSeconds, now), 'YYYY-MM-DD');
}

/** "Not after the plant's today" for a picker's disabledDate. */
export function isAfterPlantToday(d: Dayjs, today: Dayjs): boolean {
  return d.isAfter(today, 'day');
}
