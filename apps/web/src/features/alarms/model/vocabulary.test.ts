import { describe, expect, it } from 'vitest';
import { ALARM_DEVICE_TYPES, ALARM_LEVEL_KEYS, timezoneLabel } from '@sunwatch/protocol';
import { DEVICE_TYPES, LEVEL_KEYS, offsetLabel } from './vocabulary';

describe('the alarm vocabulary of the first screen', () => {
  it('is the protocol one', () => {
    expect([...LEVEL_KEYS]).toEqual([...ALARM_LEVEL_KEYS]);
    expect([...DEVICE_TYPES]).toEqual([...ALARM_DEVICE_TYPES]);
    for (const s of [0, 3600, -12600, 19800, 45900, -36000]) expect(offsetLabel(s)).toBe(timezoneLabel(s));
  });
});
