import { describe, expect, it } from 'vitest';
import {
  CARD_GRACE_DAYS,
  CARD_WARNING_DAYS,
  RECHARGE_BATCH_MAX,
  RECHARGE_BATCH_REASONS,
  cardStatusCode,
  cardUsedPct,
  cardValidityElapsed,
  checkRechargeBatch,
  deriveCardStatus,
  type RechargeCard,
} from './flow-cards.js';
import { ERRORS } from './errors.js';
import { RECHARGE_BATCH_ERRORS } from './flow-cards.js';

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 28, 12);

describe('deriveCardStatus', () => {
  const base = { usedKb: 1000, limitKb: 100_000, now };

  it('unknown without expiry or without CCID', () => {
    expect(deriveCardStatus({ ...base, expireAt: null })).toBe('unknown');
    expect(deriveCardStatus({ ...base, expireAt: now + 200 * DAY, ccid: '' })).toBe('unknown');
    expect(deriveCardStatus({ ...base, expireAt: now + 200 * DAY, ccid: '   ' })).toBe('unknown');
    expect(deriveCardStatus({ ...base, expireAt: Number.NaN })).toBe('unknown');
  });

  it('normal: far from expiry, little used; also when the limit is unknown', () => {
    expect(deriveCardStatus({ ...base, expireAt: now + 200 * DAY, ccid: '8986' })).toBe('normal');
    expect(deriveCardStatus({ ...base, expireAt: now + (CARD_WARNING_DAYS + 1) * DAY })).toBe('normal');
    expect(deriveCardStatus({ expireAt: now + 200 * DAY, usedKb: 10 ** 9, limitKb: 0, now })).toBe('normal');
  });

  it('warning: expiring within 30 days (boundary included)', () => {
    expect(deriveCardStatus({ ...base, expireAt: now + CARD_WARNING_DAYS * DAY })).toBe('warning');
    expect(deriveCardStatus({ ...base, expireAt: now + 1 })).toBe('warning');
    expect(deriveCardStatus({ ...base, expireAt: now })).toBe('warning');
  });

  it('warning: at or above 80 % used (also all used), normal just below', () => {
    const far = now + 200 * DAY;
    expect(deriveCardStatus({ expireAt: far, usedKb: 80, limitKb: 100, now })).toBe('warning');
    expect(deriveCardStatus({ expireAt: far, usedKb: 79.9, limitKb: 100, now })).toBe('normal');
    expect(deriveCardStatus({ expireAt: far, usedKb: 150, limitKb: 100, now })).toBe('warning');
  });

  it('overdue: past expiry within the grace (boundary included); expired after it', () => {
    expect(deriveCardStatus({ ...base, expireAt: now - 1 })).toBe('overdue');
    expect(deriveCardStatus({ ...base, expireAt: now - CARD_GRACE_DAYS * DAY })).toBe('overdue');
    expect(deriveCardStatus({ ...base, expireAt: now - CARD_GRACE_DAYS * DAY - 1 })).toBe('expired');
    expect(deriveCardStatus({ ...base, expireAt: now - 400 * DAY })).toBe('expired');
  });

  it('codes follow dataloggers.card_status', () => {
    expect(['normal', 'warning', 'overdue', 'expired', 'unknown'].map((s) => cardStatusCode(s as never))).toEqual([
      0, 1, 2, 3, 4,
    ]);
  });

  it('usage share and validity share', () => {
    expect(cardUsedPct(512, 1024)).toBe(50);
    expect(cardUsedPct(1, 3)).toBe(33.3);
    expect(cardUsedPct(5, 0)).toBeNull();
    expect(cardValidityElapsed(now - 10 * DAY, now + 30 * DAY, now)).toBe(0.25);
    expect(cardValidityElapsed(now - 10 * DAY, now - DAY, now)).toBe(1);
    expect(cardValidityElapsed(null, now, now)).toBeNull();
  });
});

describe('checkRechargeBatch', () => {
  const card = (i: number, o: Partial<RechargeCard> = {}): RechargeCard => ({
    pn: `SW${String(i).padStart(12, '0')}`,
    ccid: `898600000000000${String(i).padStart(5, '0')}`,
    cardType: 'standard',
    load: 1,
    area: 'mainland',
    status: 'normal',
    ...o,
  });

  it('accepts cards of one type, load, area and state (normal and warning are both active)', () => {
    expect(checkRechargeBatch([card(1)])).toBeNull();
    expect(checkRechargeBatch([card(1), card(2, { status: 'warning' })])).toBeNull();
    expect(checkRechargeBatch([card(1, { status: 'overdue' }), card(2, { status: 'overdue' })])).toBeNull();
    expect(checkRechargeBatch(Array.from({ length: RECHARGE_BATCH_MAX }, (_, i) => card(i)))).toBeNull();
  });

  it('empty → 7; over the limit → 13', () => {
    expect(checkRechargeBatch([])).toEqual({ reason: 'empty', err: 7 });
    expect(checkRechargeBatch(Array.from({ length: RECHARGE_BATCH_MAX + 1 }, (_, i) => card(i)))).toEqual({
      reason: 'too_many',
      err: 13,
    });
  });

  it('the same PN or CCID twice → 1029', () => {
    expect(checkRechargeBatch([card(1), card(1)])).toEqual({ reason: 'duplicate', err: 1029, pn: card(1).pn });
    expect(checkRechargeBatch([card(1), card(2, { ccid: card(1).ccid })])).toMatchObject({
      reason: 'duplicate',
      pn: card(2).pn,
    });
  });

  it('a card without CCID → 1042; an expired or unknown card → 1030', () => {
    expect(checkRechargeBatch([card(1), card(2, { ccid: ' ' })])).toEqual({
      reason: 'no_ccid',
      err: 1042,
      pn: card(2).pn,
    });
    expect(checkRechargeBatch([card(1), card(2, { status: 'expired' })])).toEqual({
      reason: 'not_rechargeable',
      err: 1030,
      pn: card(2).pn,
    });
    expect(checkRechargeBatch([card(1, { status: 'unknown' })])).toMatchObject({ reason: 'not_rechargeable' });
  });

  it('mixed type, load, area or state → 8, naming the first card that differs', () => {
    expect(checkRechargeBatch([card(1), card(2), card(3, { cardType: 'esim' })])).toEqual({
      reason: 'mixed_type',
      err: 8,
      pn: card(3).pn,
    });
    expect(checkRechargeBatch([card(1), card(2, { load: 4 })])).toMatchObject({ reason: 'mixed_load', err: 8 });
    expect(checkRechargeBatch([card(1), card(2, { area: 'international' })])).toMatchObject({
      reason: 'mixed_area',
      err: 8,
    });
    expect(checkRechargeBatch([card(1), card(2, { status: 'overdue' })])).toMatchObject({
      reason: 'mixed_state',
      err: 8,
      pn: card(2).pn,
    });
  });

  it('rules are checked in order: type before load before area before state', () => {
    const odd = card(2, { cardType: 'esim', load: 3, area: 'international', status: 'overdue' });
    expect(checkRechargeBatch([card(1), odd])!.reason).toBe('mixed_type');
    expect(checkRechargeBatch([card(1), { ...odd, cardType: 'standard' }])!.reason).toBe('mixed_load');
    expect(checkRechargeBatch([card(1), { ...odd, cardType: 'standard', load: 1 }])!.reason).toBe('mixed_area');
  });

  it('every reason maps to a catalogue code', () => {
    for (const r of RECHARGE_BATCH_REASONS) expect(ERRORS).toHaveProperty(String(RECHARGE_BATCH_ERRORS[r]));
  });
});
