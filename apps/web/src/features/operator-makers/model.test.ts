import { describe, expect, it } from 'vitest';
import { devcodeWire, ecoinFormErrors, makerFormErrors } from './model';

const valid = {
  usr: 'new_maker',
  pwd: 'Good_pass1',
  confPwd: 'Good_pass1',
  name: 'New Maker',
  code: 'nm',
  devcodes: [],
};

describe('factoryAccount form model', () => {
  it('a new manufacturer needs an account, a password, a name and a 2-3 character code', () => {
    expect(makerFormErrors(valid, false)).toEqual({});
    expect(makerFormErrors({ ...valid, usr: '', pwd: '123456', confPwd: 'x', name: 'A', code: 'N' }, false)).toEqual({
      usr: 'rules.username.required',
      pwd: 'rules.password.tooSimple',
      confPwd: 'rules.confirmPassword.mismatch',
      name: 'rules.name.longLength',
      code: 'rules.manufacturerCode.format',
    });
    expect(makerFormErrors({ ...valid, code: 'ABCD' }, false).code).toBe('rules.manufacturerCode.format');
  });

  it('editing checks name and code only', () => {
    expect(makerFormErrors({ ...valid, usr: '', pwd: '', confPwd: '' }, true)).toEqual({});
    expect(makerFormErrors({ ...valid, code: '' }, true)).toEqual({ code: 'rules.manufacturerCode.required' });
  });

  it('visible devcodes go as a sorted comma list, empty for all', () => {
    expect(devcodeWire([]).length).toBe(0);
    expect(devcodeWire([5123, 2341, 5123])).toBe('2341,5123');
  });

  it('ecoin: a non-zero integer that keeps the balance at or above 0, with a reason', () => {
    expect(ecoinFormErrors({ delta: 10, reason: 'top-up' }, 0)).toEqual({});
    expect(ecoinFormErrors({ delta: -5, reason: 'used' }, 5)).toEqual({});
    expect(ecoinFormErrors({ delta: -6, reason: 'used' }, 5)).toEqual({ delta: 'operatorMakers:ecoin.negative' });
    expect(ecoinFormErrors({ delta: 0, reason: '' }, 5)).toEqual({
      delta: 'operatorMakers:ecoin.deltaInvalid',
      reason: 'operatorMakers:ecoin.reasonInvalid',
    });
    expect(ecoinFormErrors({ delta: 1.5, reason: 'ok' }, 5).delta).toBe('operatorMakers:ecoin.deltaInvalid');
    expect(ecoinFormErrors({ delta: null, reason: 'ok' }, 5).delta).toBe('operatorMakers:ecoin.deltaInvalid');
  });
});
