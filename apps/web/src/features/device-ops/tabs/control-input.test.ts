import { describe, expect, it } from 'vitest';
import { checkCtrlInput, ctrlValueLabel, isButtonField } from './control-input';

const priority = { item: [{ key: '0', val: 'Utility' }, { key: '1', val: 'Solar' }, { key: '2', val: 'SBU' }] };
const soc = { hint: '5~50%', unit: '%' };

describe('checkCtrlInput', () => {
  it('needs one of the item keys of a select field', () => {
    expect(checkCtrlInput(priority, '2')).toEqual({ ok: true, value: '2' });
    expect(checkCtrlInput(priority, '7')).toEqual({ ok: false, key: 'not-an-item' });
    expect(checkCtrlInput(priority, undefined)).toEqual({ ok: false, key: 'empty' });
  });
  it('refuses a number outside the hint before anything is sent', () => {
    expect(checkCtrlInput(soc, '30')).toEqual({ ok: true, value: '30' });
    expect(checkCtrlInput(soc, '80')).toEqual({ ok: false, key: 'out-of-range' });
    expect(checkCtrlInput(soc, 'x')).toEqual({ ok: false, key: 'not-a-number' });
    expect(checkCtrlInput({ hint: '56.4~59.0V' }, '57.55')).toEqual({ ok: false, key: 'too-precise' });
  });
  it('leaves a time field to the server', () => {
    expect(checkCtrlInput({ hint: 'yyyy-mm-dd hh:mm:ss' }, '2026-11-25 08:00:00').ok).toBe(true);
  });
});

describe('ctrlValueLabel', () => {
  it('shows the item label, or the value with its unit', () => {
    expect(ctrlValueLabel(priority, '1')).toBe('Solar');
    expect(ctrlValueLabel(soc, '20')).toBe('20 %');
    expect(ctrlValueLabel(soc, undefined)).toBe('--');
  });
  it('treats a single-item field as a button', () => {
    expect(isButtonField({ item: [{ key: '1', val: 'Sleep' }] })).toBe(true);
    expect(isButtonField(priority)).toBe(false);
  });
});
