import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { checkReportRange, fileSize } from './report-range';

const today = dayjs('2026-11-25');

describe('checkReportRange', () => {
  it('accepts up to 31 days ending today', () => {
    expect(checkReportRange([dayjs('2026-10-26'), today], today)).toEqual({ ok: true, sdate: '2026-10-26', edate: '2026-11-25' });
    expect(checkReportRange([today, today], today)).toEqual({ ok: true, sdate: '2026-11-25', edate: '2026-11-25' });
  });
  it('refuses 32 days, a future end, a reversed or an empty range', () => {
    expect(checkReportRange([dayjs('2026-10-25'), today], today)).toEqual({ ok: false, key: 'tooLong' });
    expect(checkReportRange([today, dayjs('2026-11-26')], today)).toEqual({ ok: false, key: 'future' });
    expect(checkReportRange([today, dayjs('2026-11-20')], today)).toEqual({ ok: false, key: 'order' });
    expect(checkReportRange(null, today)).toEqual({ ok: false, key: 'empty' });
    expect(checkReportRange([today, null], today)).toEqual({ ok: false, key: 'empty' });
  });
});

describe('fileSize', () => {
  it('reads bytes, KB and MB', () => {
    expect(fileSize(512)).toBe('512 B');
    expect(fileSize(2048)).toBe('2.0 KB');
    expect(fileSize(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});
