import { describe, expect, it } from 'vitest';
import { getDefinition, type CommandAck } from '@sunwatch/protocol';
import { hashCtrlPwd, verifyCtrlPwd } from './ctrl-password.service.js';
import { controlValueText } from './device-control.service.js';
import { ackErr } from './device-target.js';

describe('device-control password hashing', () => {
  it('verifies the password it hashed, refuses others, salts every hash', () => {
    const h = hashCtrlPwd('Secret_42');
    expect(h).toMatch(/^scrypt\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(h).not.toContain('Secret_42');
    expect(verifyCtrlPwd(h, 'Secret_42')).toBe(true);
    expect(verifyCtrlPwd(h, 'Secret_43')).toBe(false);
    expect(verifyCtrlPwd(h, '')).toBe(false);
    expect(hashCtrlPwd('Secret_42')).not.toBe(h);
    expect(verifyCtrlPwd('plain', 'plain')).toBe(false);
  });
});

describe('control values as users see them', () => {
  const d2341 = getDefinition(2341)!;
  const d5121 = getDefinition(5121)!;
  const c = (def: typeof d2341, id: string) => def.controls.find((x) => x.id === id)!;

  it('item controls answer the item key, scaled ranges their number, signed registers their sign', () => {
    expect(controlValueText(d2341, c(d2341, 'los_output_source_priority'), [2])).toBe('2');
    expect(controlValueText(d2341, c(d2341, 'bat_sp_bulk_charging_voltage'), [564])).toBe('56.4');
    expect(controlValueText(d5121, c(d5121, 'grd_power_factor'), [0x10000 - 950])).toBe('-0.950');
  });
});

describe('negative acks → device-control errors (spec §8)', () => {
  const ack = (code?: number): CommandAck => ({ pn: 'X', id: '1', ok: false, ts: 0, ...(code === undefined ? {} : { code }) });
  it('keeps 1, 6, 8, 9 and maps anything else to 1 (failed)', () => {
    expect([1, 6, 8, 9].map((n) => ackErr(ack(n)))).toEqual([1, 6, 8, 9]);
    expect(ackErr(ack(77))).toBe(1);
    expect(ackErr(ack())).toBe(1);
  });
});
