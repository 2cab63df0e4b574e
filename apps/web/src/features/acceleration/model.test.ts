import { describe, expect, it } from 'vitest';
import {
  RECORD_LIST_SPEC,
  changeListParams,
  formatMoney,
  offeredIntervals,
  orderListParams,
  quoteParams,
  returnPathOf,
} from './model';
import { readListState, writeListState } from '../../components/list';

describe('acceleration model', () => {
  it('reads and writes the record lists in the address bar; each view keeps only its filters', () => {
    const s = readListState(
      RECORD_LIST_SPEC,
      new URLSearchParams('view=changes&change=pending&status=paid&page=3&q=SW'),
    );
    expect(s).toMatchObject({ view: 'changes', change: 'pending', status: 'paid', current: 3, search: 'SW' });
    expect(writeListState(RECORD_LIST_SPEC, s).toString()).toBe('page=3&q=SW&view=changes&change=pending');
    expect(changeListParams(s)).toEqual({ page: 2, pagesize: 10, search: 'SW', status: 'pending' });
    const o = readListState(RECORD_LIST_SPEC, new URLSearchParams('status=bogus&type=history'));
    expect(o).toMatchObject({ view: 'orders', status: '', type: 'history' });
    expect(orderListParams(o)).toEqual({ page: 0, pagesize: 10, type: 'history' });
  });

  it('offers only intervals faster than the datalogger’s', () => {
    expect(offeredIntervals(300)).toEqual([60, 30, 10]);
    expect(offeredIntervals(60)).toEqual([30, 10]);
    expect(offeredIntervals(10)).toEqual([]);
    expect(offeredIntervals(undefined)).toEqual([60, 30, 10]);
  });

  it('quote parameters: complete forms only; storage only for history', () => {
    expect(quoteParams({ type: 'flow', interval: 60 })).toBeUndefined();
    expect(quoteParams({ pn: 'P', type: 'flow' })).toBeUndefined();
    expect(quoteParams({ pn: 'P', type: 'flow', interval: 60, storage: 3 })).toEqual({
      pn: 'P',
      type: 'flow',
      interval: 60,
      storage: 0,
    });
    expect(quoteParams({ pn: 'P', type: 'history', interval: 10 })).toBeUndefined();
    expect(quoteParams({ pn: 'P', type: 'history', interval: 10, storage: 6 })?.storage).toBe(6);
  });

  it('money in minor units, and the way back from the checkout', () => {
    expect(formatMoney(15200, 'CNY', 'en-US')).toBe('CN¥152.00');
    expect(returnPathOf('/adminNew/setting/collectionFrequencyRecord/buy', 'AC1')).toBe(
      '/adminNew/setting/collectionFrequencyRecord?order=AC1',
    );
  });
});
