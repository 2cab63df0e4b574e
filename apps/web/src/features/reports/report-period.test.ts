import { describe, expect, it } from 'vitest';
import { checkPeriod, fileSize, periodText } from './report-period';

const today = '2026-11-25';
const none = { date: '', sdate: '', edate: '' };

describe('checkPeriod (the form, before sending)', () => {
  it('answers the wire parameters of each period type', () => {
    expect(checkPeriod({ ...none, type: 'daily', date: '2026-11-24' }, today)).toEqual({
      ok: true,
      params: { type: 'daily', date: '2026-11-24' },
      sdate: '2026-11-24',
      edate: '2026-11-24',
    });
    expect(checkPeriod({ ...none, type: 'monthly', date: '2026-10' }, today)).toMatchObject({
      params: { type: 'monthly', date: '2026-10' },
      sdate: '2026-10-01',
      edate: '2026-10-31',
    });
    expect(checkPeriod({ ...none, type: 'yearly', date: '2026' }, today)).toMatchObject({ params: { type: 'yearly', date: '2026' }, edate: today });
    expect(checkPeriod({ ...none, type: 'total' }, today)).toMatchObject({ ok: true, params: { type: 'total' } });
    expect(checkPeriod({ type: 'custom', date: '', sdate: '2026-10-01', edate: '2026-10-31' }, today)).toMatchObject({
      params: { type: 'custom', sdate: '2026-10-01', edate: '2026-10-31' },
    });
  });

  it('refuses a missing date, a custom range over 31 days and the future', () => {
    expect(checkPeriod({ ...none, type: 'monthly' }, today)).toEqual({ ok: false, key: 'empty' });
    expect(checkPeriod({ type: 'custom', date: '', sdate: '2026-10-01', edate: '' }, today)).toEqual({ ok: false, key: 'empty' });
    expect(checkPeriod({ type: 'custom', date: '', sdate: '2026-10-01', edate: '2026-11-01' }, today)).toEqual({ ok: false, key: 'tooLong' });
    expect(checkPeriod({ ...none, type: 'daily', date: '2026-11-26' }, today)).toEqual({ ok: false, key: 'invalid' });
    expect(checkPeriod({ ...none, type: 'yearly', date: '2027' }, today)).toEqual({ ok: false, key: 'invalid' });
  });
});

describe('history labels', () => {
  it('periodText and fileSize', () => {
    expect(periodText({ type: 'monthly', date: '2026-10', sdate: '2026-10-01', edate: '2026-10-31' })).toBe('2026-10');
    expect(periodText({ type: 'custom', date: '', sdate: '2026-10-01', edate: '2026-10-20' })).toBe('2026-10-01 ~ 2026-10-20');
    expect(fileSize(2048)).toBe('2.0 KB');
  });
});
