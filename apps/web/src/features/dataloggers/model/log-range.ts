/**
 * The datalogger log's date range (spec §5, §9): at most 3 days, no future dates, in the
 * datalogger's own calendar (its timezone). Days are yyyy-mm-dd strings.
 */
import { LIMITS, dataloggerLogRangeError, type RuleMessageKey } from '@sunwatch/protocol';

const dayMs = 86_400_000;
const toDay = (s: string) => Date.parse(`${s}T00:00:00Z`) / dayMs;

/** Whether the picker disables `day`: after today, or (while a start is picked) too far from it. */
export function logDayDisabled(day: string, today: string, pickedFrom?: string): boolean {
  if (toDay(day) > toDay(today)) return true;
  if (pickedFrom) return Math.abs(toDay(day) - toDay(pickedFrom)) >= LIMITS.DATALOGGER_LOG_MAX_DAYS;
  return false;
}

/** The default range: the last 3 days up to today. */
export function defaultLogRange(today: string): [string, string] {
  const from = new Date((toDay(today) - (LIMITS.DATALOGGER_LOG_MAX_DAYS - 1)) * dayMs).toISOString().slice(0, 10);
  return [from, today];
}

/** The rule's message key when the range is not allowed. */
export function logRangeError(from: string, to: string, today: string): RuleMessageKey | undefined {
  return dataloggerLogRangeError(from, to, today);
}
