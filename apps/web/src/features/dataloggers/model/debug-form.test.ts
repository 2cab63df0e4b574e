import { describe, expect, it } from 'vitest';
import { debugFormErrors, debugParams } from './debug-form';

describe('debug form', () => {
  it('accepts an address, a step and hex bytes, and normalises the command', () => {
    const v = { addr: ' 1 ', step: '0', cmd: 'aa bb  cc' };
    expect(debugFormErrors(v)).toEqual({});
    expect(debugParams('SWNORTH0000102', v)).toEqual({ pn: 'SWNORTH0000102', addr: 1, step: '0', cmd: 'AA BB CC' });
  });

  it('requires the communication address within 0…255', () => {
    expect(debugFormErrors({ addr: '', step: '0', cmd: 'AA' }).addr).toBe('dataloggers:debug.addrRequired');
    expect(debugFormErrors({ addr: '256', step: '0', cmd: 'AA' }).addr).toBe('dataloggers:debug.addrRequired');
    expect(debugFormErrors({ addr: '-1', step: '0', cmd: 'AA' }).addr).toBe('dataloggers:debug.addrRequired');
  });

  it('refuses a starting step that is not a valid number', () => {
    expect(debugFormErrors({ addr: '1', step: 'x', cmd: 'AA' }).step).toBe('rules.step.invalid');
    expect(debugFormErrors({ addr: '1', step: '-2', cmd: 'AA' }).step).toBe('rules.step.invalid');
    expect(debugFormErrors({ addr: '1', step: '1.5', cmd: 'AA' }).step).toBe('rules.step.invalid');
  });

  it('refuses a command that is not hex bytes separated by spaces', () => {
    expect(debugFormErrors({ addr: '1', step: '0', cmd: '' }).cmd).toBe('rules.command.required');
    expect(debugFormErrors({ addr: '1', step: '0', cmd: 'AAB' }).cmd).toBe('rules.command.format');
    expect(debugFormErrors({ addr: '1', step: '0', cmd: 'GG 01' }).cmd).toBe('rules.command.format');
  });
});
