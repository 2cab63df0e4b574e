import { describe, expect, it } from 'vitest';
import { plantToday, plantTodayDayjs } from './plant-day';

const HAMBURG_WINTER = 3600; // CET
const HAMBURG_SUMMER = 7200; // CEST
const KIRITIMATI = 14 * 3600; // UTC+14
const PAGO_PAGO = -11 * 3600; // UTC-11
const SHANGHAI = 8 * 3600;

describe('plantToday: the plant’s calendar date, not the browser’s', () => {
  it('is the UTC date for a plant at UTC+0', () => {
    expect(plantToday(0, Date.parse('2026-11-24T23:59:59Z'))).toBe('2026-11-24');
    expect(plantToday(0, Date.parse('2026-11-25T00:00:00Z'))).toBe('2026-11-25');
  });

  it('crosses midnight forwards for plants east of UTC before UTC does', () => {
    // 23:00 UTC is already tomorrow in Hamburg (00:00 CET) and Kiritimati (13:00 next day)
    const t = Date.parse('2026-11-24T23:00:00Z');
    expect(plantToday(HAMBURG_WINTER, t - 1)).toBe('2026-11-24');
    expect(plantToday(HAMBURG_WINTER, t)).toBe('2026-11-25');
    expect(plantToday(KIRITIMATI, t)).toBe('2026-11-25');
    // 16:00 UTC is midnight in a UTC+8 plant
    const s = Date.parse('2026-11-24T16:00:00Z');
    expect(plantToday(SHANGHAI, s - 1)).toBe('2026-11-24');
    expect(plantToday(SHANGHAI, s)).toBe('2026-11-25');
    // summer time: 22:00 UTC is midnight CEST
    expect(plantToday(HAMBURG_SUMMER, Date.parse('2026-06-30T21:59:59Z'))).toBe('2026-06-30');
    expect(plantToday(HAMBURG_SUMMER, Date.parse('2026-06-30T22:00:00Z'))).toBe('2026-07-01');
  });

  it('stays on yesterday for plants west of UTC after UTC midnight', () => {
    const t = Date.parse('2026-11-25T00:30:00Z');
    expect(plantToday(PAGO_PAGO, t)).toBe('2026-11-24');
    // 11:00 UTC is midnight in Pago Pago
    expect(plantToday(PAGO_PAGO, Date.parse('2026-11-25T10:59:59Z'))).toBe('2026-11-24');
    expect(plantToday(PAGO_PAGO, Date.parse('2026-11-25T11:00:00Z'))).toBe('2026-11-25');
  });

  it('differs by two calendar days between the extremes of the zones', () => {
    const t = Date.parse('2026-11-24T10:30:00Z');
    expect(plantToday(KIRITIMATI, t)).toBe('2026-11-25');
    expect(plantToday(PAGO_PAGO, t)).toBe('2026-11-23');
  });

  it('rolls over months, years and leap days', () => {
    expect(plantToday(HAMBURG_WINTER, Date.parse('2026-12-31T23:00:00Z'))).toBe('2027-01-01');
    expect(plantToday(PAGO_PAGO, Date.parse('2027-01-01T05:00:00Z'))).toBe('2026-12-31');
    expect(plantToday(KIRITIMATI, Date.parse('2028-02-28T10:00:00Z'))).toBe('2028-02-29');
    expect(plantToday(-5.5 * 3600, Date.parse('2026-03-01T05:29:59Z'))).toBe('2026-02-28');
  });
});

describe('plantTodayDayjs: a picker value that formats as the plant’s date', () => {
  it('formats to plantToday in every view format', () => {
    const t = Date.parse('2026-12-31T23:30:00Z');
    const d = plantTodayDayjs(KIRITIMATI, t);
    expect(d.format('YYYY-MM-DD')).toBe('2027-01-01');
    expect(d.format('YYYY-MM')).toBe('2027-01');
    expect(d.format('YYYY')).toBe('2027');
    expect(plantTodayDayjs(PAGO_PAGO, t).format('YYYY-MM-DD')).toBe('2026-12-31');
  });
});
