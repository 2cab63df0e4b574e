import { describe, expect, it } from 'vitest';
import { checkReportPeriod } from './periods.js';

describe('checkReportPeriod', () => {
  const today = '2026-11-25';
  it('daily, monthly, yearly cover their local days and end today at the latest', () => {
    expect(checkReportPeriod({ type: 'daily', date: '2026-11-3' }, today)).toEqual({
      ok: true,
      type: 'daily',
      date: '2026-11-03',
      sdate: '2026-11-03',
      edate: '2026-11-03',
    });
    expect(checkReportPeriod({ type: 'monthly', date: '2026-02' }, today)).toMatchObject({ sdate: '2026-02-01', edate: '2026-02-28' });
    expect(checkReportPeriod({ type: 'monthly', date: '2024-02' }, today)).toMatchObject({ edate: '2024-02-29' });
    expect(checkReportPeriod({ type: 'monthly', date: '2026-11' }, today)).toMatchObject({ edate: '2026-11-25' });
    expect(checkReportPeriod({ type: 'yearly', date: '2025' }, today)).toMatchObject({ sdate: '2025-01-01', edate: '2025-12-31' });
    expect(checkReportPeriod({ type: 'total' }, today)).toMatchObject({ ok: true, sdate: '', edate: '' });
  });
  it('custom: at most 31 days (err 13), well formed and not reversed or in the future (err 6)', () => {
    expect(checkReportPeriod({ type: 'custom', sdate: '2026-10-01', edate: '2026-10-31' }, today)).toMatchObject({ ok: true });
    expect(checkReportPeriod({ type: 'custom', sdate: '2026-10-01', edate: '2026-11-01' }, today)).toEqual({ ok: false, err: 13 });
    expect(checkReportPeriod({ type: 'custom', sdate: '2026-10-05', edate: '2026-10-01' }, today)).toEqual({ ok: false, err: 6 });
    expect(checkReportPeriod({ type: 'custom', sdate: '2026-11-26', edate: '2026-11-27' }, today)).toEqual({ ok: false, err: 6 });
    expect(checkReportPeriod({ type: 'custom', sdate: '2026-02-30', edate: '2026-03-01' }, today)).toEqual({ ok: false, err: 6 });
  });
  it('refuses missing or malformed dates', () => {
    expect(checkReportPeriod({ type: 'daily' }, today)).toEqual({ ok: false, err: 6 });
    expect(checkReportPeriod({ type: 'monthly', date: '2026-13' }, today)).toEqual({ ok: false, err: 6 });
    expect(checkReportPeriod({ type: 'yearly', date: '2027' }, today)).toEqual({ ok: false, err: 6 });
    expect(checkReportPeriod({ type: 'daily', date: '2026-11-26' }, today)).toEqual({ ok: false, err: 6 });
  });
});
