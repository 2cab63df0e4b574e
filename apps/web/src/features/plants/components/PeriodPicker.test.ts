import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { stepPeriod } from './PeriodPicker';

describe('stepPeriod', () => {
  const today = dayjs('2026-11-25', 'YYYY-MM-DD');
  it('steps back freely and forward up to the period holding the today of the plant', () => {
    expect(stepPeriod(today, 'day', -1, today)?.format('YYYY-MM-DD')).toBe('2026-11-24');
    expect(stepPeriod(today, 'day', 1, today)).toBeUndefined();
    expect(stepPeriod(dayjs('2026-11-24'), 'day', 1, today)?.format('YYYY-MM-DD')).toBe('2026-11-25');
    expect(stepPeriod(today, 'month', 1, today)).toBeUndefined();
    expect(stepPeriod(dayjs('2026-10-31'), 'month', 1, today)?.format('YYYY-MM')).toBe('2026-11');
    expect(stepPeriod(today, 'year', -1, today)?.format('YYYY')).toBe('2025');
    expect(stepPeriod(today, 'year', 1, today)).toBeUndefined();
  });
});
