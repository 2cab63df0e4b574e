import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CURRENCIES,
  FILE_LIMITS,
  LIMITS,
  PASSWORD_STRENGTH_COLORS,
  RULE_MESSAGE_KEYS,
  RULE_MESSAGE_VALUES,
  TIMEZONE_OFFSETS,
  TOO_SIMPLE_PASSWORDS,
  accountPhoneSchema,
  applyNameSchema,
  batchFileError,
  byteLength,
  changePasswordFormSchema,
  charCount,
  commAddressSchema,
  confirmPasswordError,
  confirmYesError,
  countrySchema,
  currencySchema,
  dataloggerLogRangeError,
  dateRangeError,
  dayNumber,
  demoFormSchema,
  devaddrSchema,
  deviceToolFormSchema,
  emailSchema,
  entryKeySchema,
  experienceApplyFormSchema,
  fileExtension,
  firmwareFileError,
  firmwareUploadFormSchema,
  formatHexCommand,
  groupNameSchema,
  hexCommandSchema,
  imageFileError,
  invitationCodeSchema,
  isEmail,
  isFutureDate,
  isMainlandMobile,
  isPn,
  isRuleMessageKey,
  isTimezoneOffset,
  isTooSimplePassword,
  keyEntryFormSchema,
  latitudeSchema,
  loginFormSchema,
  longNameSchema,
  longitudeSchema,
  lookupSerialSchema,
  mainlandMobileSchema,
  manufacturerCodeSchema,
  nameSchema,
  nicknameSchema,
  normalizeCurrency,
  parameterSelectionError,
  parseHexCommand,
  passwordClasses,
  passwordSchema,
  passwordStrength,
  passwordStrengthKey,
  phoneSchema,
  pictureCodeMatches,
  pictureCodeSchema,
  pnSchema,
  priceSchema,
  randomPictureCode,
  ratedPowerSchema,
  reportRangeError,
  retrieveStep0Schema,
  retrieveStep1EmailSchema,
  retrieveStep1MobileSchema,
  retrieveStep2Schema,
  roleRequiredSchema,
  ruleErrorKey,
  ruleErrors,
  signupFormSchema,
  startStepSchema,
  strictEmailSchema,
  timezoneLabel,
  timezoneSchema,
  typeCodeSchema,
  usernameSchema,
  verificationCodeSchema,
} from './rules.js';

const key = (schema: z.ZodType, value: unknown) => ruleErrorKey(schema, value);
const ok = (schema: z.ZodType, value: unknown) => expect(ruleErrorKey(schema, value)).toBeUndefined();
const s = (n: number, ch = 'a') => ch.repeat(n);

describe('message keys', () => {
  it('are unique, all under rules.*', () => {
    expect(new Set(RULE_MESSAGE_KEYS).size).toBe(RULE_MESSAGE_KEYS.length);
    for (const k of RULE_MESSAGE_KEYS) expect(k).toMatch(/^rules\.[A-Za-z0-9.]+$/);
  });
  it('values exist only for known keys', () => {
    for (const k of Object.keys(RULE_MESSAGE_VALUES)) expect(isRuleMessageKey(k)).toBe(true);
    expect(isRuleMessageKey('rules.nope')).toBe(false);
  });
  it('every issue a schema produces is a known key', () => {
    const samples: Array<[z.ZodType, unknown]> = [
      [usernameSchema, 'a!'],
      [passwordSchema, '123456'],
      [loginFormSchema, {}],
      [signupFormSchema, { usr: 'x', phone: 'a', email: 'b', code: '1', pwd: '1', confPwd: '2' }],
      [experienceApplyFormSchema, {}],
      [keyEntryFormSchema, {}],
      [deviceToolFormSchema, {}],
      [currencySchema, 'XYZ'],
      [timezoneSchema, 'abc'],
    ];
    for (const [schema, value] of samples) {
      const r = schema.safeParse(value);
      expect(r.success).toBe(false);
      if (!r.success) for (const issue of r.error.issues) expect(isRuleMessageKey(issue.message), issue.message).toBe(true);
    }
  });
});

describe('username', () => {
  it('length edges 2..32', () => {
    expect(key(usernameSchema, s(1))).toBe('rules.username.length');
    ok(usernameSchema, s(2));
    ok(usernameSchema, s(32));
    expect(key(usernameSchema, s(33))).toBe('rules.username.length');
  });
  it('required', () => {
    expect(key(usernameSchema, '')).toBe('rules.username.required');
    expect(key(usernameSchema, '   ')).toBe('rules.username.required');
    expect(key(usernameSchema, undefined)).toBe('rules.username.required');
  });
  it('Chinese, letters, digits, underscore', () => {
    ok(usernameSchema, '张三');
    ok(usernameSchema, '用户_01');
    ok(usernameSchema, 'owner_anna');
    expect(key(usernameSchema, '张')).toBe('rules.username.length');
    ok(usernameSchema, s(32, '中'));
    expect(key(usernameSchema, s(33, '中'))).toBe('rules.username.length');
    expect(key(usernameSchema, 'ab-c')).toBe('rules.username.chars');
    expect(key(usernameSchema, 'ab c')).toBe('rules.username.chars');
    expect(key(usernameSchema, 'user@x')).toBe('rules.username.chars');
    expect(key(usernameSchema, 'Ünal')).toBe('rules.username.chars');
    expect(key(usernameSchema, '张，三')).toBe('rules.username.chars');
  });
  it('counts characters, not UTF-16 units', () => {
    expect(charCount('𠀀𠀀')).toBe(2);
    ok(usernameSchema, '𠀀𠀀');
  });
});

describe('password', () => {
  it('length edges 6..32', () => {
    expect(key(passwordSchema, 'abc12')).toBe('rules.password.length');
    ok(passwordSchema, 'abc123');
    ok(passwordSchema, s(32, 'b'));
    expect(key(passwordSchema, s(33, 'b'))).toBe('rules.password.length');
    expect(key(passwordSchema, '')).toBe('rules.password.required');
  });
  it('digits, letters, underscore only; no Chinese', () => {
    ok(passwordSchema, 'Ab_123');
    expect(key(passwordSchema, '密码密码密码')).toBe('rules.password.chars');
    expect(key(passwordSchema, 'abc12密')).toBe('rules.password.chars');
    expect(key(passwordSchema, 'abc 123')).toBe('rules.password.chars');
    expect(key(passwordSchema, 'abc-123')).toBe('rules.password.chars');
  });
  it('is case sensitive (not normalised)', () => {
    const r = passwordSchema.safeParse('AbCdEf');
    expect(r.success && r.data).toBe('AbCdEf');
  });
  it('rejects the too-simple ones', () => {
    expect(TOO_SIMPLE_PASSWORDS).toEqual(['123456', '12345678']);
    expect(key(passwordSchema, '123456')).toBe('rules.password.tooSimple');
    expect(key(passwordSchema, '12345678')).toBe('rules.password.tooSimple');
    ok(passwordSchema, '1234567');
    ok(passwordSchema, '123457');
    expect(isTooSimplePassword('123456')).toBe(true);
    expect(isTooSimplePassword('abcdef')).toBe(false);
  });
  it('strength by classes digits / letters / underscore-or-other', () => {
    expect(passwordClasses('')).toBe(0);
    expect(passwordStrength('')).toBe('weak');
    expect(passwordStrength('123456')).toBe('weak');
    expect(passwordStrength('abcdef')).toBe('weak');
    expect(passwordStrength('ABCdef')).toBe('weak');
    expect(passwordStrength('______')).toBe('weak');
    expect(passwordStrength('abc123')).toBe('medium');
    expect(passwordStrength('abc___')).toBe('medium');
    expect(passwordStrength('123___')).toBe('medium');
    expect(passwordStrength('abc_123')).toBe('strong');
    expect(passwordStrength('Owner_2026')).toBe('strong');
    expect(passwordStrengthKey('abc_123')).toBe('rules.password.strength.strong');
    expect(PASSWORD_STRENGTH_COLORS).toEqual({ weak: 'red', medium: 'orange', strong: 'green' });
  });
  it('confirm must equal password', () => {
    expect(confirmPasswordError('abc123', '')).toBe('rules.confirmPassword.required');
    expect(confirmPasswordError('abc123', 'abc124')).toBe('rules.confirmPassword.mismatch');
    expect(confirmPasswordError('abc123', 'ABC123')).toBe('rules.confirmPassword.mismatch');
    expect(confirmPasswordError('abc123', 'abc123')).toBeUndefined();
    expect(ruleErrors(retrieveStep2Schema, { pwd: 'abc123', confPwd: 'abc12' })).toEqual({
      confPwd: 'rules.confirmPassword.mismatch',
    });
    ok(retrieveStep2Schema, { pwd: 'abc123', confPwd: 'abc123' });
    expect(ruleErrors(retrieveStep2Schema, { pwd: '123456', confPwd: '123456' })).toEqual({
      pwd: 'rules.password.tooSimple',
    });
  });
  it('change password: new differs from old', () => {
    expect(ruleErrors(changePasswordFormSchema, { oldPwd: 'abc123', pwd: 'abc123', confPwd: 'abc123' })).toEqual({
      pwd: 'rules.password.sameAsOld',
    });
    expect(ruleErrors(changePasswordFormSchema, { oldPwd: '', pwd: 'abc124', confPwd: 'abc124' })).toEqual({
      oldPwd: 'rules.password.oldRequired',
    });
    ok(changePasswordFormSchema, { oldPwd: 'abc123', pwd: 'abc124', confPwd: 'abc124' });
  });
});

describe('login form', () => {
  it('usr required 2..32, pwd required 6..32, pwd trimmed', () => {
    expect(ruleErrors(loginFormSchema, { usr: '', pwd: '' })).toEqual({
      usr: 'rules.username.required',
      pwd: 'rules.password.required',
    });
    expect(ruleErrors(loginFormSchema, { usr: 'a', pwd: '12345' })).toEqual({
      usr: 'rules.username.length',
      pwd: 'rules.password.length',
    });
    expect(ruleErrors(loginFormSchema, { usr: s(33), pwd: s(33) })).toEqual({
      usr: 'rules.username.length',
      pwd: 'rules.password.length',
    });
    const r = loginFormSchema.safeParse({ usr: 'ab', pwd: '  abcdef  ', isRem: true });
    expect(r.success && r.data).toEqual({ usr: 'ab', pwd: 'abcdef', isRem: true });
    expect(ruleErrors(loginFormSchema, { usr: 'ab', pwd: '  abcde  ' })).toEqual({ pwd: 'rules.password.length' });
    ok(loginFormSchema, { usr: s(32), pwd: s(32) });
  });
  it('does not apply the signup charset at login', () => {
    ok(loginFormSchema, { usr: 'legacy-user', pwd: 'Operator_2026' });
  });
});

describe('nickname, group, names', () => {
  it('nickname 2..32', () => {
    expect(key(nicknameSchema, 'a')).toBe('rules.nickname.length');
    ok(nicknameSchema, 'ab');
    ok(nicknameSchema, s(32));
    expect(key(nicknameSchema, s(33))).toBe('rules.nickname.length');
  });
  it('group name required', () => {
    expect(key(groupNameSchema, '')).toBe('rules.groupName.required');
    expect(key(groupNameSchema, '  ')).toBe('rules.groupName.required');
    ok(groupNameSchema, 'G');
  });
  it('name fields 2..32 and 2..64', () => {
    expect(key(nameSchema, '')).toBe('rules.name.required');
    expect(key(nameSchema, 'a')).toBe('rules.name.length');
    ok(nameSchema, 'ab');
    ok(nameSchema, s(32));
    expect(key(nameSchema, s(33))).toBe('rules.name.length');
    expect(key(longNameSchema, 'a')).toBe('rules.name.longLength');
    ok(longNameSchema, 'ab');
    ok(longNameSchema, s(64));
    expect(key(longNameSchema, s(65))).toBe('rules.name.longLength');
  });
});

describe('email', () => {
  it('required, pattern, at most 64', () => {
    expect(key(emailSchema, '')).toBe('rules.email.required');
    ok(emailSchema, 'a@b.co');
    ok(emailSchema, 'first.last+tag@mail.example.com');
    expect(key(emailSchema, 'plain')).toBe('rules.email.format');
    expect(key(emailSchema, 'a@b')).toBe('rules.email.format');
    expect(key(emailSchema, 'a b@c.com')).toBe('rules.email.format');
    const at64 = `${s(58)}@b.com`;
    expect(at64.length).toBe(64);
    ok(emailSchema, at64);
    expect(key(emailSchema, `${s(59)}@b.com`)).toBe('rules.email.length');
    expect(isEmail('a@b.co')).toBe(true);
    expect(isEmail('a@b')).toBe(false);
  });
  it('stricter pattern for password retrieval', () => {
    ok(strictEmailSchema, 'first.last@mail.example.com');
    ok(strictEmailSchema, 'a-b_c@ex-ample.org');
    for (const bad of ['a..b@x.com', '.a@x.com', 'a.@x.com', 'a@x.c1', 'a@x.c', 'a@-x.com', 'a@x..com']) {
      expect(key(strictEmailSchema, bad), bad).toBe('rules.email.format');
    }
    // the basic pattern lets some of them through
    ok(emailSchema, 'a..b@x.com');
    ok(emailSchema, 'a@x.c1');
  });
});

describe('phones and codes', () => {
  it('phone digits 6..32', () => {
    expect(key(phoneSchema, '')).toBe('rules.phone.required');
    expect(key(phoneSchema, '12345')).toBe('rules.phone.length');
    ok(phoneSchema, '123456');
    ok(phoneSchema, s(32, '9'));
    expect(key(phoneSchema, s(33, '9'))).toBe('rules.phone.length');
    expect(key(phoneSchema, '+8613800138000')).toBe('rules.phone.digits');
    expect(key(phoneSchema, '138 0013 8000')).toBe('rules.phone.digits');
  });
  it('account page phone: 11 digits', () => {
    expect(key(accountPhoneSchema, '1380013800')).toBe('rules.phone.length11');
    ok(accountPhoneSchema, '13800138000');
    expect(key(accountPhoneSchema, '138001380001')).toBe('rules.phone.length11');
  });
  it('mainland mobile ^1[3-9]\\d{9}$', () => {
    expect(key(mainlandMobileSchema, '')).toBe('rules.mobile.required');
    ok(mainlandMobileSchema, '13800138000');
    ok(mainlandMobileSchema, '19912345678');
    expect(key(mainlandMobileSchema, '12800138000')).toBe('rules.mobile.format');
    expect(key(mainlandMobileSchema, '1380013800')).toBe('rules.mobile.format');
    expect(key(mainlandMobileSchema, '138001380001')).toBe('rules.mobile.format');
    expect(key(mainlandMobileSchema, '23800138000')).toBe('rules.mobile.format');
    expect(isMainlandMobile('15012345678')).toBe(true);
  });
  it('verification code: 6 digits', () => {
    expect(key(verificationCodeSchema, '')).toBe('rules.code.required');
    expect(key(verificationCodeSchema, '12345')).toBe('rules.code.format');
    ok(verificationCodeSchema, '123456');
    expect(key(verificationCodeSchema, '1234567')).toBe('rules.code.format');
    expect(key(verificationCodeSchema, '12345a')).toBe('rules.code.format');
  });
  it('picture code: 4 of [0-9A-Z], case-insensitive', () => {
    expect(key(pictureCodeSchema, '')).toBe('rules.pictureCode.required');
    expect(key(pictureCodeSchema, 'AB1')).toBe('rules.pictureCode.format');
    ok(pictureCodeSchema, 'AB12');
    ok(pictureCodeSchema, 'ab12');
    expect(key(pictureCodeSchema, 'AB123')).toBe('rules.pictureCode.format');
    expect(key(pictureCodeSchema, 'AB-1')).toBe('rules.pictureCode.format');
    expect(pictureCodeMatches('ab12', 'AB12')).toBe(true);
    expect(pictureCodeMatches(' Ab12 ', 'aB12')).toBe(true);
    expect(pictureCodeMatches('ab13', 'AB12')).toBe(false);
    expect(pictureCodeMatches('', 'AB12')).toBe(false);
    expect(pictureCodeMatches('ab1', 'AB1')).toBe(false);
    expect(pictureCodeMatches(undefined, 'AB12')).toBe(false);
    let i = 0;
    const seq = [0, 0.5, 0.999, 0.3];
    const code = randomPictureCode(() => seq[i++]!);
    expect(code).toMatch(/^[0-9A-Z]{4}$/);
    expect(code[0]).toBe('0');
    expect(code[2]).toBe('Z');
  });
});

describe('experience code', () => {
  const valid = {
    applyName: 'Li Lei',
    phoneNumber: '13800138000',
    email: 'li@example.com',
    reason: 'Evaluation',
  };
  it('apply form rules', () => {
    ok(experienceApplyFormSchema, valid);
    ok(experienceApplyFormSchema, { ...valid, companyName: '', companyAddress: '' });
    expect(ruleErrors(experienceApplyFormSchema, { ...valid, reason: '' })).toEqual({
      reason: 'rules.reason.required',
    });
    expect(ruleErrors(experienceApplyFormSchema, {})).toEqual({
      applyName: 'rules.applyName.required',
      phoneNumber: 'rules.phone.required',
      email: 'rules.email.required',
      reason: 'rules.reason.required',
    });
    expect(key(applyNameSchema, 'L')).toBe('rules.applyName.length');
    ok(applyNameSchema, s(32));
    expect(key(applyNameSchema, s(33))).toBe('rules.applyName.length');
    expect(ruleErrors(experienceApplyFormSchema, { ...valid, phoneNumber: '12345' })).toEqual({
      phoneNumber: 'rules.phone.length',
    });
    expect(ruleErrors(experienceApplyFormSchema, { ...valid, phoneNumber: s(33, '1') })).toEqual({
      phoneNumber: 'rules.phone.length',
    });
  });
  it('invitation code required', () => {
    expect(key(invitationCodeSchema, '')).toBe('rules.invitationCode.required');
    expect(ruleErrors(demoFormSchema, { code: ' ' })).toEqual({ code: 'rules.invitationCode.required' });
    ok(demoFormSchema, { code: 'DEMO2026' });
  });
});

describe('password retrieval', () => {
  it('step 0: usename 2..32 and picture code', () => {
    ok(retrieveStep0Schema, { usename: 'ab', verifycode: 'x9z1' });
    expect(ruleErrors(retrieveStep0Schema, { usename: 'a', verifycode: 'x9z' })).toEqual({
      usename: 'rules.username.length',
      verifycode: 'rules.pictureCode.format',
    });
  });
  it('step 1: mobile 6..32 or strict email, code required', () => {
    ok(retrieveStep1MobileSchema, { mobile: '123456', smsCode: '123456' });
    expect(ruleErrors(retrieveStep1MobileSchema, { mobile: '12345', smsCode: '' })).toEqual({
      mobile: 'rules.phone.length',
      smsCode: 'rules.code.required',
    });
    expect(ruleErrors(retrieveStep1EmailSchema, { email: 'a..b@x.com', smsCode: '1' })).toEqual({
      email: 'rules.email.format',
    });
  });
});

describe('signup form', () => {
  const valid = { usr: '新用户_1', phone: '13800138000', email: 'a@b.co', code: '123456', pwd: 'abc_123', confPwd: 'abc_123' };
  it('accepts a valid signup and rejects a mismatch on confPwd', () => {
    ok(signupFormSchema, valid);
    expect(ruleErrors(signupFormSchema, { ...valid, confPwd: 'abc_124' })).toEqual({
      confPwd: 'rules.confirmPassword.mismatch',
    });
  });
  it('country required', () => {
    expect(key(countrySchema, '')).toBe('rules.country.required');
    ok(countrySchema, 'CN');
  });
});

describe('PN, serial, codes, key', () => {
  const pn = (n: number, first = 'W') => first + '1'.repeat(n - 1);
  it('PN 14 or 18, letters+digits, first uppercase letter', () => {
    expect(key(pnSchema, '')).toBe('rules.pn.required');
    expect(key(pnSchema, pn(13))).toBe('rules.pn.length');
    ok(pnSchema, pn(14));
    expect(key(pnSchema, pn(15))).toBe('rules.pn.length');
    expect(key(pnSchema, pn(17))).toBe('rules.pn.length');
    ok(pnSchema, pn(18));
    expect(key(pnSchema, pn(19))).toBe('rules.pn.length');
    expect(key(pnSchema, pn(14, 'w'))).toBe('rules.pn.format');
    expect(key(pnSchema, pn(14, '1'))).toBe('rules.pn.format');
    expect(key(pnSchema, 'W1234567890-12')).toBe('rules.pn.format');
    ok(pnSchema, 'Q0819510394213');
    ok(pnSchema, 'WA1b2C3d4E5f6G7h8i');
    expect(isPn(pn(14))).toBe(true);
    expect(isPn(pn(16))).toBe(false);
  });
  it('lookup serial: capital letter then digits, at most 24', () => {
    expect(key(lookupSerialSchema, '')).toBe('rules.serial.required');
    ok(lookupSerialSchema, 'Q1');
    ok(lookupSerialSchema, 'Q' + '1'.repeat(23));
    expect(key(lookupSerialSchema, 'Q' + '1'.repeat(24))).toBe('rules.serial.length');
    expect(key(lookupSerialSchema, 'q123')).toBe('rules.serial.format');
    expect(key(lookupSerialSchema, 'QQ123')).toBe('rules.serial.format');
    expect(key(lookupSerialSchema, 'Q')).toBe('rules.serial.format');
    expect(key(lookupSerialSchema, '1234')).toBe('rules.serial.format');
  });
  it('manufacturer code 2..3 letters/digits', () => {
    expect(key(manufacturerCodeSchema, '')).toBe('rules.manufacturerCode.required');
    expect(key(manufacturerCodeSchema, 'S')).toBe('rules.manufacturerCode.format');
    ok(manufacturerCodeSchema, 'SW');
    ok(manufacturerCodeSchema, 'a1Z');
    expect(key(manufacturerCodeSchema, 'SWXY')).toBe('rules.manufacturerCode.format');
    expect(key(manufacturerCodeSchema, 'S_')).toBe('rules.manufacturerCode.format');
  });
  it('type code: a single letter', () => {
    expect(key(typeCodeSchema, '')).toBe('rules.typeCode.required');
    ok(typeCodeSchema, 'A');
    ok(typeCodeSchema, 'z');
    expect(key(typeCodeSchema, 'AB')).toBe('rules.typeCode.format');
    expect(key(typeCodeSchema, '1')).toBe('rules.typeCode.format');
  });
  it('key entry key: 16 bytes', () => {
    expect(key(entryKeySchema, '')).toBe('rules.entryKey.required');
    ok(entryKeySchema, '0123456789ABCDEF');
    ok(entryKeySchema, 'bnrl_frRFjEz8Mkn');
    expect(key(entryKeySchema, '0123456789ABCDE')).toBe('rules.entryKey.length');
    expect(key(entryKeySchema, '0123456789ABCDEF0')).toBe('rules.entryKey.length');
    expect(byteLength('密钥密钥密')).toBe(15);
    expect(key(entryKeySchema, '密钥密钥密')).toBe('rules.entryKey.length');
    ok(entryKeySchema, '密钥密钥密a');
  });
  it('key entry form: every field required, the host name too', () => {
    const errs = ruleErrors(keyEntryFormSchema, { key: 'short' });
    expect(errs).toMatchObject({
      company: 'rules.required',
      version: 'rules.required',
      client: 'rules.required',
      domain: 'rules.required',
      contact: 'rules.required',
      description: 'rules.required',
      enabled: 'rules.required',
      key: 'rules.entryKey.length',
      hostname: 'rules.hostname.required',
    });
    expect(ruleErrors(keyEntryFormSchema, { company: 'S' })).toMatchObject({ company: 'rules.name.longLength' });
    ok(keyEntryFormSchema, {
      company: 'Sun',
      version: '1',
      client: 'web',
      domain: 'sun.example',
      contact: 'ops',
      key: '0123456789ABCDEF',
      description: 'd',
      enabled: true,
      hostname: 'app.sun.example',
    });
  });
});

describe('datalogger numbers', () => {
  it('longitude -180..180, latitude -90..90 (numbers or strings)', () => {
    for (const v of [-180, 180, 0, '121.47', ' -180 ']) ok(longitudeSchema, v);
    expect(key(longitudeSchema, -180.0001)).toBe('rules.longitude.range');
    expect(key(longitudeSchema, '180.5')).toBe('rules.longitude.range');
    for (const v of [-90, 90, '31.23']) ok(latitudeSchema, v);
    expect(key(latitudeSchema, -90.5)).toBe('rules.latitude.range');
    expect(key(latitudeSchema, 91)).toBe('rules.latitude.range');
    expect(key(latitudeSchema, 'north')).toBe('rules.number.invalid');
    expect(key(latitudeSchema, '')).toBe('rules.required');
    expect(key(latitudeSchema, Number.POSITIVE_INFINITY)).toBeDefined();
  });
  it('prices non-negative', () => {
    ok(priceSchema, 0);
    ok(priceSchema, '0.45');
    expect(key(priceSchema, -0.01)).toBe('rules.price.negative');
    expect(key(priceSchema, 'x')).toBe('rules.number.invalid');
  });
  it('rated power required and positive', () => {
    expect(key(ratedPowerSchema, '')).toBe('rules.ratedPower.required');
    expect(key(ratedPowerSchema, 0)).toBe('rules.ratedPower.invalid');
    expect(key(ratedPowerSchema, 'abc')).toBe('rules.ratedPower.invalid');
    ok(ratedPowerSchema, '5.5');
  });
  it('communication address required; YES confirmation', () => {
    expect(key(commAddressSchema, '')).toBe('rules.commAddress.required');
    expect(confirmYesError('YES')).toBeUndefined();
    expect(confirmYesError(' YES ')).toBeUndefined();
    expect(confirmYesError('yes')).toBe('rules.confirmYes.mismatch');
    expect(confirmYesError('')).toBe('rules.confirmYes.mismatch');
    expect(confirmYesError(undefined)).toBe('rules.confirmYes.mismatch');
  });
});

describe('timezones and currencies', () => {
  it('offsets GMT-12..+13 plus +5:30 and +6:30, in seconds, ascending', () => {
    expect(TIMEZONE_OFFSETS).toHaveLength(28);
    expect(TIMEZONE_OFFSETS[0]).toBe(-43200);
    expect(TIMEZONE_OFFSETS.at(-1)).toBe(46800);
    expect(TIMEZONE_OFFSETS).toContain(19800);
    expect(TIMEZONE_OFFSETS).toContain(23400);
    expect(TIMEZONE_OFFSETS).toContain(0);
    expect([...TIMEZONE_OFFSETS].sort((a, b) => a - b)).toEqual(TIMEZONE_OFFSETS);
    expect(new Set(TIMEZONE_OFFSETS).size).toBe(28);
    expect(isTimezoneOffset(-46800)).toBe(false);
    expect(isTimezoneOffset(50400)).toBe(false);
    expect(isTimezoneOffset(16200)).toBe(false);
    expect(timezoneLabel(19800)).toBe('GMT+5:30');
    expect(timezoneLabel(-43200)).toBe('GMT-12');
    expect(timezoneLabel(28800)).toBe('GMT+8');
    expect(timezoneLabel(0)).toBe('GMT+0');
  });
  it('timezone schema', () => {
    ok(timezoneSchema, 28800);
    ok(timezoneSchema, '23400');
    expect(key(timezoneSchema, '')).toBe('rules.timezone.required');
    expect(key(timezoneSchema, 3601)).toBe('rules.timezone.invalid');
    expect(key(timezoneSchema, 'x')).toBe('rules.timezone.invalid');
  });
  it('currencies of spec §3', () => {
    expect(CURRENCIES).toEqual(['CNY', 'USD', 'EUR', 'AUD', 'GBP', 'HKD', 'SEK', 'INR', 'MXN', 'BRL', 'PKR', 'ZAR']);
    expect(normalizeCurrency('RMB')).toBe('CNY');
    expect(normalizeCurrency('usd')).toBe('USD');
    expect(normalizeCurrency('JPY')).toBeUndefined();
    const r = currencySchema.safeParse('rmb');
    expect(r.success && r.data).toBe('CNY');
    expect(key(currencySchema, '')).toBe('rules.currency.required');
    expect(key(currencySchema, 'JPY')).toBe('rules.currency.invalid');
  });
});

describe('roles, devices, commands', () => {
  it('role required', () => {
    expect(key(roleRequiredSchema, '')).toBe('rules.role.required');
    expect(key(roleRequiredSchema, undefined)).toBe('rules.role.required');
    ok(roleRequiredSchema, 3);
    ok(roleRequiredSchema, 'r1');
  });
  it('device tool form: SN and address typed twice', () => {
    const valid = { sn: 'SN1', snConfirm: 'SN1', devaddr: '1', devaddrConfirm: 1, devcode: '2304', start: '2024-01-01', end: '2024-01-02' };
    ok(deviceToolFormSchema, valid);
    expect(ruleErrors(deviceToolFormSchema, { ...valid, snConfirm: 'SN2', devaddrConfirm: 2 })).toEqual({
      snConfirm: 'rules.sn.mismatch',
      devaddrConfirm: 'rules.devaddr.mismatch',
    });
    expect(ruleErrors(deviceToolFormSchema, { ...valid, snConfirm: 'SN2' })).toEqual({ snConfirm: 'rules.sn.mismatch' });
    expect(ruleErrors(deviceToolFormSchema, { ...valid, devaddrConfirm: 2 })).toEqual({
      devaddrConfirm: 'rules.devaddr.mismatch',
    });
    expect(ruleErrors(deviceToolFormSchema, {})).toMatchObject({
      sn: 'rules.sn.required',
      devaddr: 'rules.devaddr.required',
      devcode: 'rules.devcode.required',
      start: 'rules.dateRange.required',
    });
    expect(key(devaddrSchema, 256)).toBe('rules.devaddr.invalid');
    expect(key(devaddrSchema, 1.5)).toBe('rules.devaddr.invalid');
    ok(devaddrSchema, 0);
    ok(devaddrSchema, 255);
  });
  it('hex command "AA BB CC"', () => {
    ok(hexCommandSchema, 'AA BB CC');
    ok(hexCommandSchema, 'aa');
    ok(hexCommandSchema, ' 01 02  ff ');
    expect(key(hexCommandSchema, '')).toBe('rules.command.required');
    for (const bad of ['AABBCC', 'A BB', 'AA BB C', 'GG', 'AA,BB', '0xAA']) {
      expect(key(hexCommandSchema, bad), bad).toBe('rules.command.format');
    }
    expect(Array.from(parseHexCommand('AA bb 0C')!)).toEqual([0xaa, 0xbb, 0x0c]);
    expect(parseHexCommand('AAB')).toBeUndefined();
    expect(formatHexCommand([0xaa, 0xb, 0xcc])).toBe('AA 0B CC');
    expect(formatHexCommand(parseHexCommand('01 fe')!)).toBe('01 FE');
  });
  it('starting step must be a valid number', () => {
    ok(startStepSchema, '0');
    ok(startStepSchema, 12);
    for (const bad of ['', 'x', -1, 1.5]) expect(key(startStepSchema, bad)).toBe('rules.step.invalid');
  });
  it('parameter selection: 1..7 shown, <=4 compared, <=2 units', () => {
    const p = (...units: string[]) => units.map((unit) => ({ unit }));
    expect(parameterSelectionError([])).toBe('rules.parameters.min');
    expect(parameterSelectionError([], 'compare')).toBe('rules.parameters.min');
    expect(parameterSelectionError(p('W'))).toBeUndefined();
    expect(parameterSelectionError(p('W', 'W', 'W', 'W', 'V', 'V', 'V'))).toBeUndefined();
    expect(parameterSelectionError(p('W', 'W', 'W', 'W', 'V', 'V', 'V', 'V'))).toBe('rules.parameters.maxDisplay');
    expect(parameterSelectionError(p('W', 'W', 'V', 'V'), 'compare')).toBeUndefined();
    expect(parameterSelectionError(p('W', 'W', 'V', 'V', 'V'), 'compare')).toBe('rules.parameters.maxCompare');
    expect(parameterSelectionError(p('W', 'V', 'A'))).toBe('rules.parameters.units');
    expect(parameterSelectionError(p('W', 'V', 'A'), 'compare')).toBe('rules.parameters.units');
    expect(parameterSelectionError(['kWh', 'kWh', 'W'])).toBeUndefined();
    expect(parameterSelectionError([{ unit: 'W' }, {}, { unit: 'V' }])).toBe('rules.parameters.units');
  });
});

describe('date ranges', () => {
  const today = '2024-03-15';
  it('parses calendar days', () => {
    expect(dayNumber('1970-01-02')).toBe(1);
    expect(dayNumber('2024-02-29 23:59:59')).toBe(dayNumber('2024-02-29'));
    expect(dayNumber('2024/3/5')).toBe(dayNumber('2024-03-05'));
    expect(dayNumber('2023-02-29')).toBeUndefined();
    expect(dayNumber('nope')).toBeUndefined();
    expect(dayNumber(new Date(2024, 2, 15, 23, 30))).toBe(dayNumber('2024-03-15'));
  });
  it('report range at most 31 days', () => {
    expect(reportRangeError('2024-01-01', '2024-01-31', today)).toBeUndefined();
    expect(reportRangeError('2024-01-01', '2024-02-01', today)).toBe('rules.dateRange.reportTooLong');
    expect(reportRangeError('2024-02-14', '2024-03-15', today)).toBeUndefined();
    expect(reportRangeError('2024-03-15', '2024-03-15', today)).toBeUndefined();
  });
  it('datalogger log range at most 3 days', () => {
    expect(dataloggerLogRangeError('2024-03-13', '2024-03-15', today)).toBeUndefined();
    expect(dataloggerLogRangeError('2024-03-12', '2024-03-15', today)).toBe('rules.dateRange.logTooLong');
    expect(dataloggerLogRangeError('2024-03-13 00:00:00', '2024-03-15 23:59:59', today)).toBeUndefined();
  });
  it('no future dates, ordered, required, valid', () => {
    expect(dataloggerLogRangeError('2024-03-15', '2024-03-16', today)).toBe('rules.dateRange.future');
    expect(reportRangeError('2024-03-16', '2024-03-16', today)).toBe('rules.dateRange.future');
    expect(reportRangeError('2024-03-10', '2024-03-09', today)).toBe('rules.dateRange.order');
    expect(reportRangeError('', '2024-03-09', today)).toBe('rules.dateRange.required');
    expect(reportRangeError('2024-03-01', undefined, today)).toBe('rules.dateRange.required');
    expect(reportRangeError('2024-13-01', '2024-03-09', today)).toBe('rules.dateRange.invalid');
    expect(isFutureDate('2024-03-16', today)).toBe(true);
    expect(isFutureDate('2024-03-15', today)).toBe(false);
    expect(
      dateRangeError('2030-01-01', '2030-01-02', { maxDays: 3, tooLongKey: 'rules.dateRange.logTooLong', today, allowFuture: true }),
    ).toBeUndefined();
  });
});

describe('files', () => {
  const MB = 1024 * 1024;
  it('extension', () => {
    expect(fileExtension('fw.BIN')).toBe('bin');
    expect(fileExtension('a.b.hex')).toBe('hex');
    expect(fileExtension('C:\\dir\\x.s19')).toBe('s19');
    expect(fileExtension('noext')).toBe('');
    expect(fileExtension('.bin')).toBe('');
  });
  it('firmware: bin/hex/s19, 8 MB manager, 1 MB upgrade', () => {
    expect(FILE_LIMITS.FIRMWARE_MANAGER_BYTES).toBe(8 * MB);
    expect(firmwareFileError(undefined)).toBe('rules.file.required');
    expect(firmwareFileError({ name: 'fw.zip', size: 10 })).toBe('rules.firmware.type');
    expect(firmwareFileError({ name: 'fw.bin', size: 8 * MB })).toBeUndefined();
    expect(firmwareFileError({ name: 'fw.bin', size: 8 * MB + 1 })).toBe('rules.firmware.sizeManager');
    expect(firmwareFileError({ name: 'fw.hex', size: MB }, 'upgrade')).toBeUndefined();
    expect(firmwareFileError({ name: 'fw.s19', size: MB + 1 }, 'upgrade')).toBe('rules.firmware.sizeUpgrade');
    expect(ruleErrors(firmwareUploadFormSchema, { firmwareName: '', firmwareVersion: '' })).toEqual({
      firmwareName: 'rules.firmware.nameRequired',
      firmwareVersion: 'rules.firmware.versionRequired',
    });
  });
  it('images: jpg/png 8 MB, project 1 MB', () => {
    expect(imageFileError(null)).toBe('rules.file.required');
    expect(imageFileError({ name: 'a.gif', size: 1 })).toBe('rules.image.type');
    expect(imageFileError({ name: 'a.JPG', size: 8 * MB })).toBeUndefined();
    expect(imageFileError({ name: 'a.jpeg', size: 1 })).toBeUndefined();
    expect(imageFileError({ name: 'a.png', size: 8 * MB + 1 })).toBe('rules.image.size');
    expect(imageFileError({ name: 'a.png', size: MB }, 'project')).toBeUndefined();
    expect(imageFileError({ name: 'a.png', size: MB + 1 }, 'project')).toBe('rules.image.projectSize');
  });
  it('batch files: xlsx for dataloggers, xlsx/xls for assignment', () => {
    expect(batchFileError({ name: 'pn.xlsx', size: 1 }, 'datalogger')).toBeUndefined();
    expect(batchFileError({ name: 'pn.xls', size: 1 }, 'datalogger')).toBe('rules.batchFile.xlsx');
    expect(batchFileError({ name: 'pn.csv', size: 1 }, 'datalogger')).toBe('rules.batchFile.xlsx');
    expect(batchFileError({ name: 'a.xls', size: 1 }, 'assignment')).toBeUndefined();
    expect(batchFileError({ name: 'a.XLSX', size: 1 })).toBeUndefined();
    expect(batchFileError({ name: 'a.csv', size: 1 })).toBe('rules.batchFile.excel');
    expect(batchFileError(undefined)).toBe('rules.file.required');
  });
});

describe('limits', () => {
  it('match spec §9', () => {
    expect(LIMITS.USERNAME_MAX).toBe(32);
    expect(LIMITS.PASSWORD_MIN).toBe(6);
    expect(LIMITS.EMAIL_MAX).toBe(64);
    expect(LIMITS.PN_LENGTHS).toEqual([14, 18]);
    expect(LIMITS.SERIAL_MAX).toBe(24);
    expect(LIMITS.REPORT_MAX_DAYS).toBe(31);
    expect(LIMITS.DATALOGGER_LOG_MAX_DAYS).toBe(3);
    expect(LIMITS.PHONE_CODE_VALIDITY_SECONDS).toBe(60);
    expect(LIMITS.EMAIL_CODE_VALIDITY_SECONDS).toBe(300);
    expect(FILE_LIMITS.PROJECT_IMAGE_BYTES).toBe(1024 * 1024);
  });
});
