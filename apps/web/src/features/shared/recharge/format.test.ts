import { describe, expect, it } from 'vitest';
import { readListState } from '../../../components/list';
import { RECHARGE_LIST_SPEC, formatDateTime, formatMoney, rechargeListParams } from './format';

describe('shared recharge format', () => {
  it('formats money in minor units with the currency’s digits, in either locale form', () => {
    expect(formatMoney(12000, 'CNY', 'en-US')).toBe('CN¥120.00');
    expect(formatMoney(12000, 'CNY', 'en_US')).toBe('CN¥120.00');
    expect(formatMoney(1500, 'JPY', 'en-US')).toBe('¥1,500');
  });

  it('a time not reached is a dash', () => {
    expect(formatDateTime(null, 'en-US')).toBe('—');
    expect(formatDateTime(Date.UTC(2026, 5, 1, 8), 'en-US')).toMatch(/^6\/1\/26/);
  });

  it('reads the list filters from the address bar, unknown values as none', () => {
    const s = readListState(
      RECHARGE_LIST_SPEC,
      new URLSearchParams('status=paid&area=mars&method=scan&from=2026-06-01'),
    );
    expect(s).toMatchObject({ status: 'paid', area: '', method: 'scan', from: '2026-06-01', to: '' });
    expect(rechargeListParams(s)).toMatchObject({ page: 0, pagesize: 10, status: 'paid', method: 'scan' });
  });
});
