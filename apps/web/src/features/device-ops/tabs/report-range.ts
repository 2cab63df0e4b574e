/** The report export range of spec §5: at most REPORT_MAX_DAYS days, none after the plant's today. */
import type { Dayjs } from 'dayjs';
import { REPORT_MAX_DAYS } from '@sunwatch/protocol';

export type RangeCheck = { ok: true; sdate: string; edate: string } | { ok: false; key: 'empty' | 'tooLong' | 'future' | 'order' };

export function checkReportRange(range: readonly [Dayjs | null, Dayjs | null] | null | undefined, today: Dayjs): RangeCheck {
  const [a, b] = range ?? [null, null];
  if (!a || !b) return { ok: false, key: 'empty' };
  if (b.isBefore(a, 'day')) return { ok: false, key: 'order' };
  if (b.isAfter(today, 'day')) return { ok: false, key: 'future' };
  if (b.startOf('day').diff(a.startOf('day'), 'day') + 1 > REPORT_MAX_DAYS) return { ok: false, key: 'tooLong' };
  return { ok: true, sdate: a.format('YYYY-MM-DD'), edate: b.format('YYYY-MM-DD') };
}

/** "12.3 KB" of a byte count. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
