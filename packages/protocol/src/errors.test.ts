import { describe, expect, it } from 'vitest';
import {
  ApiError,
  DEVICE_CONTROL_CODES,
  ERRORS,
  ERROR_CODES,
  ORDER_ALLOCATION_CODES,
  errorDesc,
  errorMessageKey,
  isErrorCode,
} from './errors.js';
import { DEFAULT_LOCALE, LOCALES, type Locale } from './locales.js';
import { RULE_MESSAGE_KEYS, RULE_MESSAGE_VALUES } from './rules.js';
import { PROTOCOL_MESSAGES, errorMessage, interpolate, ruleMessage, strategyPauseText, upgradeReasonText } from './i18n/index.js';
import { STRATEGY_PAUSE_CODES, decodeStrategyPause, encodeStrategyPause } from './actions/upgrade-strategies-params.js';
import { UPGRADE_REASONS, decodeUpgradeReason, encodeUpgradeReason } from './firmware.js';

/** Every code of spec §8, table by table. */
const SPEC_CODES = {
  general: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27],
  data: [
    256, 257, 258, 259, 260, 261, 262, 263, 264, 265, 271, 272, 273, 276, 288, 352, 353, 368, 369, 370, 371, 372, 384,
    385, 386, 387,
  ],
  account: [
    512, 513, 514, 515, 516, 517, 518, 519, 520, 521, 522, 523, 524, 525, 528, 768, 772, 1024, 1025, 1026, 1027, 1028,
    1029, 1030, 1031, 1033, 1040, 1041, 1042, 1792,
  ],
  deviceControl: [1, 2, 6, 8, 9, 11, 263],
  orderAllocation: [1, 7, 8, 12, 23, 259, 261, 772],
};

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('error catalogue', () => {
  it('has every code of spec §8', () => {
    for (const code of [...SPEC_CODES.general, ...SPEC_CODES.data, ...SPEC_CODES.account]) {
      expect(isErrorCode(code), String(code)).toBe(true);
    }
    expect(ERROR_CODES).toHaveLength(SPEC_CODES.general.length + SPEC_CODES.data.length + SPEC_CODES.account.length);
    expect([...DEVICE_CONTROL_CODES]).toEqual(SPEC_CODES.deviceControl);
    expect([...ORDER_ALLOCATION_CODES]).toEqual(SPEC_CODES.orderAllocation);
    for (const code of [...SPEC_CODES.deviceControl, ...SPEC_CODES.orderAllocation]) expect(isErrorCode(code)).toBe(true);
  });

  it('has unique desc names in ERR_ style', () => {
    const names = Object.values(ERRORS);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^ERR_[A-Z0-9_]+$/);
  });

  it('wire names used by the protocol doc', () => {
    expect(errorDesc(0)).toBe('ERR_NONE');
    expect(errorDesc(4)).toBe('ERR_SIGN');
    expect(errorDesc(10)).toBe('ERR_NO_AUTH');
    expect(errorDesc(99999)).toBe('ERR_FAIL');
    expect(isErrorCode(99999)).toBe(false);
  });

  it('message keys by context', () => {
    expect(errorMessageKey(1)).toBe('1');
    expect(errorMessageKey(1, 'deviceControl')).toBe('deviceControl.1');
    expect(errorMessageKey(12, 'deviceControl')).toBe('12');
    expect(errorMessageKey(772, 'orderAllocation')).toBe('orderAllocation.772');
    expect(errorMessageKey(2, 'orderAllocation')).toBe('2');
  });

  it('ApiError carries desc with detail', () => {
    const e = new ApiError(6, 'usr', undefined, 'rules.username.length');
    expect(e.desc).toBe('ERR_FORMAT_ERROR(usr)');
    expect(new ApiError(16).desc).toBe('ERR_PASSWORD_VERIF_FAIL');
  });
});

describe('message catalogues', () => {
  const en = PROTOCOL_MESSAGES.en_US;

  it('en_US errors.json has exactly codes, contexts, upgrade reasons, strategy pause reasons and special.*', () => {
    const expected = new Set([
      ...ERROR_CODES.map(String),
      ...DEVICE_CONTROL_CODES.map((c) => `deviceControl.${c}`),
      ...ORDER_ALLOCATION_CODES.map((c) => `orderAllocation.${c}`),
      ...UPGRADE_REASONS.map((c) => `upgradeReason.${c}`),
      ...STRATEGY_PAUSE_CODES.map((c) => `strategyPause.${c}`),
      'strategyPause.stage0',
      'strategyPause.stage1',
    ]);
    for (const k of expected) expect(en.errors[k], k).toBeTruthy();
    for (const k of Object.keys(en.errors)) {
      expect(expected.has(k) || k.startsWith('special.'), k).toBe(true);
    }
  });

  it('en_US rules.json has exactly RULE_MESSAGE_KEYS', () => {
    expect(Object.keys(en.rules).sort()).toEqual([...RULE_MESSAGE_KEYS].sort());
  });

  it('uses the spec wording in English', () => {
    expect(en.rules['rules.password.tooSimple']).toBe('Password is too simple, please re-enter');
    expect(en.rules['rules.reason.required']).toBe('The reason for application cannot be empty');
    expect(en.rules['rules.invitationCode.required']).toBe('The experience code is required');
    expect(en.rules['rules.invitationCode.expired']).toBe('The invitation code is not within its validity period');
    expect(en.rules['rules.roleName.duplicate']).toBe('The role name already exists, please re-enter');
    expect(en.rules['rules.accountType.limit']).toBe('Exceeding the limit, this account type already exists');
    expect(en.errors['524']).toBe('Verification codes are sent frequently, please try again later');
    expect(en.errors['deviceControl.1']).toBe('Operation failed. Please check the device and try again!');
  });

  it('has all 11 locales', () => {
    expect(Object.keys(PROTOCOL_MESSAGES).sort()).toEqual([...LOCALES].sort());
  });

  for (const locale of LOCALES) {
    for (const book of ['errors', 'rules'] as const) {
      it(`${locale} ${book}.json: same keys as en_US, non-empty, placeholders preserved`, () => {
        const own = PROTOCOL_MESSAGES[locale][book];
        const ref = en[book];
        expect(Object.keys(own).sort()).toEqual(Object.keys(ref).sort());
        for (const [k, text] of Object.entries(ref)) {
          const t = own[k]!;
          expect(typeof t, `${locale} ${k}`).toBe('string');
          expect(t.trim().length, `${locale} ${k}`).toBeGreaterThan(0);
          expect(placeholders(t), `${locale} ${k}`).toEqual(placeholders(text));
        }
      });
    }
    if (locale !== DEFAULT_LOCALE) {
      it(`${locale} is actually translated`, () => {
        const own = PROTOCOL_MESSAGES[locale];
        const same = Object.entries(en.rules).filter(([k, v]) => own.rules[k] === v);
        const sameErrors = Object.entries(en.errors).filter(([k, v]) => own.errors[k] === v);
        expect(same.length + sameErrors.length).toBeLessThan(3);
      });
    }
  }

  it('uz_UZ uses Latin script', () => {
    const all = Object.values(PROTOCOL_MESSAGES.uz_UZ.errors).concat(Object.values(PROTOCOL_MESSAGES.uz_UZ.rules));
    for (const t of all) expect(t).not.toMatch(/[\u0400-\u04FF]/);
  });

  it('placeholders only where values are known', () => {
    for (const [k, text] of Object.entries(en.rules)) {
      const names = placeholders(text);
      const values = RULE_MESSAGE_VALUES[k as keyof typeof RULE_MESSAGE_VALUES] ?? {};
      for (const n of names) expect(values, `${k} {{${n}}}`).toHaveProperty(n!);
    }
  });
});

describe('errorMessage', () => {
  it('by code and locale', () => {
    expect(errorMessage(16, 'en_US')).toBe('Wrong password');
    expect(errorMessage(16, 'de_DE')).toBe('Falsches Passwort');
    expect(errorMessage(16, 'zh_CN')).toBe('密码错误');
  });
  it('by context', () => {
    expect(errorMessage(1, 'en_US', 'deviceControl')).toBe('Operation failed. Please check the device and try again!');
    expect(errorMessage(1, 'en_US', 'orderAllocation')).toBe('Allocation failed');
    expect(errorMessage(12, 'en_US', 'deviceControl')).toBe('No record');
    expect(errorMessage(1, 'en_US', 'general')).toBe('Operation failed');
  });
  it('interpolates values and message keys', () => {
    expect(errorMessage(13, 'en_US', undefined, { seconds: 30 }, 'special.loginThrottled')).toBe(
      'Too many failed sign-in attempts. Try again in 30 seconds',
    );
    expect(errorMessage(13, 'fr_FR', undefined, { seconds: 30 }, 'special.loginThrottled')).toContain('30');
    expect(errorMessage(6, 'en_US', undefined, { field: 'usr' }, 'special.fieldInvalid')).toBe('The field usr is invalid');
  });
  it('accepts rule keys as message keys, with their default values', () => {
    expect(errorMessage(6, 'en_US', undefined, undefined, 'rules.username.length')).toBe(
      'The username must be 2 to 32 characters',
    );
    expect(errorMessage(17, 'en_US', undefined, undefined, 'rules.password.tooSimple')).toBe(
      'Password is too simple, please re-enter',
    );
  });
  it('falls back: unknown message key → code, unknown code → "Operation failed"', () => {
    expect(errorMessage(16, 'en_US', undefined, undefined, 'special.nope')).toBe('Wrong password');
    expect(errorMessage(99999, 'en_US')).toBe('Operation failed');
    expect(errorMessage(99999, 'it_IT')).toBe(PROTOCOL_MESSAGES.it_IT.errors['1']);
  });
  it('falls back to en_US when a locale lacks a key', () => {
    const book = PROTOCOL_MESSAGES.pl_PL.errors;
    const saved = book['16'];
    delete book['16'];
    try {
      expect(errorMessage(16, 'pl_PL')).toBe('Wrong password');
    } finally {
      book['16'] = saved!;
    }
    expect(errorMessage(16, 'xx_XX' as Locale)).toBe('Wrong password');
  });
  it('leaves unknown placeholders alone', () => {
    expect(interpolate('a {{x}} b {{ y }}', { y: 2 })).toBe('a {{x}} b 2');
    expect(interpolate('{{x}}')).toBe('{{x}}');
  });
});

describe('ruleMessage', () => {
  it('fills default limits', () => {
    expect(ruleMessage('rules.password.length', 'en_US')).toBe('The password must be 6 to 32 characters');
    expect(ruleMessage('rules.name.longLength', 'en_US')).toBe('The name must be 2 to 64 characters');
    expect(ruleMessage('rules.dateRange.reportTooLong', 'en_US')).toBe('The date range cannot exceed 31 days');
    expect(ruleMessage('rules.dateRange.logTooLong', 'de_DE')).toContain('3');
    expect(ruleMessage('rules.firmware.sizeUpgrade', 'en_US')).toBe('The firmware file cannot exceed 1 MB');
    expect(ruleMessage('rules.image.size', 'en_US')).toBe('The image cannot exceed 8 MB');
    expect(ruleMessage('rules.username.length', 'zh_CN')).toBe('用户名长度为 2 到 32 个字符');
  });
  it('every key renders without leftover placeholders in every locale', () => {
    for (const locale of LOCALES) {
      for (const k of RULE_MESSAGE_KEYS) expect(ruleMessage(k, locale), `${locale} ${k}`).not.toMatch(/\{\{/);
    }
  });
  it('explicit values win; unknown key returns the key', () => {
    expect(ruleMessage('rules.email.length', 'en_US', { max: 10 })).toBe('The email address cannot exceed 10 characters');
    expect(ruleMessage('rules.nope', 'en_US')).toBe('rules.nope');
  });
});

describe('upgrade reasons (issue 13, G4)', () => {
  it('are stored as a code plus the datalogger\'s detail and read in the reader\'s language', () => {
    const stored = encodeUpgradeReason('flashFailed', 'crc mismatch');
    expect(stored).toBe('reason:flashFailed|crc mismatch');
    expect(decodeUpgradeReason(stored)).toEqual({ code: 'flashFailed', detail: 'crc mismatch' });
    expect(upgradeReasonText(stored, 'en_US')).toBe('Flashing failed on the datalogger: crc mismatch');
    expect(upgradeReasonText(stored, 'de_DE')).toBe('Das Flashen ist auf dem Datenlogger fehlgeschlagen: crc mismatch');
    expect(upgradeReasonText(stored, 'zh_CN')).toBe('数据采集器烧录失败：crc mismatch');
    expect(upgradeReasonText(encodeUpgradeReason('notDistributable'), 'fr_FR')).toContain('micrologiciel');
    // An unknown language reads English; '' stays ''; legacy free text and unknown codes as stored.
    expect(upgradeReasonText(encodeUpgradeReason('noFlashReport'), 'xx')).toBe('No report from the datalogger while flashing');
    expect(upgradeReasonText('', 'de_DE')).toBe('');
    expect(upgradeReasonText('chunk refused: 5', 'de_DE')).toBe('chunk refused: 5');
    expect(upgradeReasonText('reason:nope|x', 'de_DE')).toBe('reason:nope|x');
    expect(encodeUpgradeReason('chunkRefused', 'x'.repeat(300))).toHaveLength(200);
    for (const c of UPGRADE_REASONS) expect(decodeUpgradeReason(encodeUpgradeReason(c))).toEqual({ code: c, detail: '' });
  });

  it('strategy pause reasons: stored as a code with parameters, read in any language, legacy prose as stored', () => {
    const stored = encodeStrategyPause('stageFailed', { stage: 1, failed: 3, finished: 10, pct: 30, threshold: 20 });
    expect(decodeStrategyPause(stored)).toEqual({ code: 'stageFailed', params: { stage: 1, failed: 3, finished: 10, pct: 30, threshold: 20 } });
    expect(strategyPauseText(stored, 'en_US')).toBe('Rollout stage: 3 of 10 upgrades failed (30 % > 20 %)');
    expect(strategyPauseText(stored, 'de_DE')).toBe('Rollout-Phase: 3 von 10 Aktualisierungen fehlgeschlagen (30 % > 20 %)');
    expect(strategyPauseText(encodeStrategyPause('firmwareRefused', { err: 352 }), 'zh_CN')).toContain('352');
    expect(strategyPauseText('canary: 1 of 2 failed (50 % > 20 %)', 'fr_FR')).toBe('canary: 1 of 2 failed (50 % > 20 %)');
    expect(strategyPauseText('pause:nope|{}', 'fr_FR')).toBe('pause:nope|{}');
    expect(strategyPauseText('', 'fr_FR')).toBe('');
    for (const l of LOCALES) for (const c of STRATEGY_PAUSE_CODES) expect(PROTOCOL_MESSAGES[l].errors[`strategyPause.${c}`], `${l} ${c}`).toBeTruthy();
  });
});
