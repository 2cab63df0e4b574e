import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration';

const H = 3_600_000;

describe('formatDuration', () => {
  it('shows the two largest units, the second only when not zero', () => {
    expect(formatDuration(2 * 24 * H + 3 * H + 5 * 60_000, 'en_US')).toBe('2 days 3 hr');
    expect(formatDuration(4 * H, 'en_US')).toBe('4 hr');
    expect(formatDuration(12 * 60_000 + 5_000, 'en_US')).toBe('12 min 5 sec');
    expect(formatDuration(0, 'en_US')).toBe('0 sec');
    expect(formatDuration(-5, 'en_US')).toBe('0 sec');
  });
  it('follows the interface language', () => {
    expect(formatDuration(3 * H, 'de_DE')).toBe('3 Std.');
    expect(formatDuration(3 * H, 'ru_RU')).toBe('3 ч');
    expect(formatDuration(3 * H, 'zh_CN')).toContain('3');
  });
});
