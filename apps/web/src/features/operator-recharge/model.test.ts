import { describe, expect, it } from 'vitest';
import { RECHARGE_ORDER_STATUSES, RECHARGE_TRANSITIONS } from '@sunwatch/protocol';
import { RECHARGE_LIST_SPEC, formatMoney, rechargeListParams, remedyFormError, remedyOptions } from './model';
import { readListState, writeListState } from '../../components/list';

describe('rechargeRemedy model', () => {
  it('reads and writes the list state of the address bar, dropping unknown values', () => {
    const s = readListState(
      RECHARGE_LIST_SPEC,
      new URLSearchParams('status=overdue&area=mars&method=paypal&from=2026-06-01&to=junk&page=2'),
    );
    expect(s).toMatchObject({ status: 'overdue', area: '', method: 'paypal', from: '2026-06-01', to: '', current: 2 });
    expect(writeListState(RECHARGE_LIST_SPEC, s).toString()).toBe(
      'page=2&status=overdue&method=paypal&from=2026-06-01',
    );
  });

  it('wire parameters: 0-based page, only the filters set, whole local days', () => {
    const s = readListState(RECHARGE_LIST_SPEC, new URLSearchParams('q=%20RC2026%20&from=2026-06-01&to=2026-06-02'));
    const p = rechargeListParams(s);
    expect(p).toEqual({
      page: 0,
      pagesize: 10,
      search: 'RC2026',
      start: new Date(2026, 5, 1).getTime(),
      end: new Date(2026, 5, 3).getTime() - 1,
    });
  });

  it('money from minor units, exact, in the currency and language', () => {
    expect(formatMoney(12000, 'CNY', 'en-US')).toBe('CN¥120.00');
    expect(formatMoney(1350, 'EUR', 'en-US')).toBe('€13.50');
    expect(formatMoney(1350, 'EUR', 'de-DE')).toBe('13,50\u00a0€');
    expect(formatMoney(5, 'USD', 'en-US')).toBe('$0.05');
    expect(formatMoney(500, 'JPY', 'en-US')).toBe('¥500');
  });

  it('offers exactly the moves of the protocol table; success offers none', () => {
    for (const s of RECHARGE_ORDER_STATUSES) expect(remedyOptions(s)).toEqual(RECHARGE_TRANSITIONS[s]);
    expect(remedyOptions('success')).toEqual([]);
    expect(remedyOptions('unpaid')).not.toContain('success');
  });

  it('the remedy needs an allowed state and a reason of 2–500 characters', () => {
    expect(remedyFormError({ reason: 'ok ok' }, 'paid')).toBe('remedy.pickStatus');
    expect(remedyFormError({ status: 'unpaid', reason: 'ok ok' }, 'paid')).toBe('remedy.pickStatus');
    expect(remedyFormError({ status: 'recharging', reason: '   ' }, 'paid')).toBe('remedy.reasonRequired');
    expect(remedyFormError({ status: 'recharging', reason: ' x ' }, 'paid')).toBe('remedy.reasonLength');
    expect(remedyFormError({ status: 'recharging', reason: 'x'.repeat(501) }, 'paid')).toBe('remedy.reasonLength');
    expect(remedyFormError({ status: 'recharging', reason: 'submitted again' }, 'paid')).toBeUndefined();
  });
});
