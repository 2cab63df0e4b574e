import { describe, expect, it } from 'vitest';
import { ROLES, catalogue } from '@sunwatch/protocol';
import { CREATE_ACTION, CREATE_ROLES, ACCOUNT_TYPES, creatableTypes } from './account-kinds';
import { createFormErrors, dealerCodes, nameError, passwordFormErrors } from './account-types';

const valid = { usr: 'new_owner', pwd: 'Good_pass1', confPwd: 'Good_pass1' };

describe('create form rules (spec §5)', () => {
  it('accepts a complete owner', () => {
    expect(createFormErrors({ type: 'owner', ...valid })).toEqual({});
  });

  it('checks username, password, confirm, e-mail, phone and nickname with the protocol rules', () => {
    const e = createFormErrors({
      type: 'owner',
      usr: 'a',
      pwd: '123456',
      confPwd: 'x',
      email: 'nope',
      mobile: '12ab',
      qname: 'x',
    });
    expect(e).toEqual({
      usr: 'rules.username.length',
      pwd: 'rules.password.tooSimple',
      confPwd: 'rules.confirmPassword.mismatch',
      email: 'rules.email.format',
      mobile: 'rules.phone.digits',
      qname: 'rules.nickname.length',
    });
    expect(createFormErrors({ type: 'owner', usr: 'bad name!', pwd: 'abc', confPwd: 'abc' })).toMatchObject({
      usr: 'rules.username.chars',
      pwd: 'rules.password.length',
    });
    expect(createFormErrors({ type: 'owner' })).toMatchObject({
      usr: 'rules.username.required',
      pwd: 'rules.password.required',
      confPwd: 'rules.confirmPassword.required',
    });
  });

  it('leaves optional contact fields alone when empty', () => {
    expect(createFormErrors({ type: 'owner', ...valid, email: '', mobile: '  ', qname: '' })).toEqual({});
  });

  it('asks a dealer for dealer codes, a sub-administrator for a role, a group account for a group', () => {
    expect(createFormErrors({ type: 'dealer', ...valid })).toEqual({ vcode: 'accounts:create.vcodeRequired' });
    expect(createFormErrors({ type: 'dealer', ...valid, vcode: 'N1;N2' })).toEqual({
      vcode: 'accounts:create.vcodeFormat',
    });
    expect(createFormErrors({ type: 'dealer', ...valid, vcode: 'N1, N-2' })).toEqual({});
    expect(createFormErrors({ type: 'subAdmin', ...valid })).toEqual({ rid: 'rules.role.required' });
    expect(createFormErrors({ type: 'subAdmin', ...valid, rid: 3 })).toEqual({});
    expect(createFormErrors({ type: 'group', ...valid })).toEqual({ groupid: 'accounts:create.groupRequired' });
    expect(createFormErrors({ type: 'group', ...valid, groupid: 2 })).toEqual({});
  });

  it('checks the reset-password pair and names', () => {
    expect(passwordFormErrors('Good_pass1', 'Good_pass1')).toEqual({});
    expect(passwordFormErrors('12345678', '1')).toEqual({
      pwd: 'rules.password.tooSimple',
      confPwd: 'rules.confirmPassword.mismatch',
    });
    expect(nameError('')).toBe('rules.groupName.required');
    expect(nameError('', 'role')).toBe('rules.name.required');
    expect(nameError('x')).toBe('rules.name.length');
    expect(nameError('North team')).toBeUndefined();
  });

  it('joins dealer codes into the wire list', () => {
    expect(dealerCodes(' N1 , ,N2,')).toBe('N1,N2');
  });
});

describe('account types', () => {
  it('lets each role create exactly what the catalogue lets it create', () => {
    for (const type of ACCOUNT_TYPES) {
      const def = catalogue[CREATE_ACTION[type]];
      const roles = (def.access as { roles?: readonly number[] }).roles ?? ROLES;
      expect([...CREATE_ROLES[type]].sort(), type).toEqual([...roles].sort());
    }
  });

  it('offers a group account only owners and viewers, an owner only viewers', () => {
    expect(creatableTypes(3)).toEqual(['owner', 'viewer']);
    expect(creatableTypes(0)).toEqual(['viewer']);
    expect(creatableTypes(5)).toEqual([]);
    expect(creatableTypes(1)).toEqual(['owner', 'dealer', 'viewer', 'group', 'subAdmin']);
  });
});
