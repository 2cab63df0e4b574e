import { describe, expect, it } from 'vitest';
import { readListState, writeListState } from '../../../components/list';
import { ALARM_LIST_SPEC, alarmListParams, nextDay, readLevels } from './list-params';

const read = (q: string) => readListState(ALARM_LIST_SPEC, new URLSearchParams(q));

describe('alarm list state in the address bar', () => {
  it('reads every filter and writes back only what differs from the defaults', () => {
    const s = read(
      'tab=history&page=2&q=SW23&pid=4&pn=SWNORTH0000001&sn=SW2341N0000101&level=2,0,2,9&handle=0&atype=inverter&from=2026-11-01&to=2026-11-07&hidden=1',
    );
    expect(s).toMatchObject({
      tab: 'history',
      current: 2,
      search: 'SW23',
      pid: 4,
      pn: 'SWNORTH0000001',
      sn: 'SW2341N0000101',
      levels: [0, 2],
      handle: 0,
      atype: 'inverter',
      from: '2026-11-01',
      to: '2026-11-07',
      showHidden: true,
    });
    expect(writeListState(ALARM_LIST_SPEC, s).toString()).toBe(
      'page=2&q=SW23&tab=history&pid=4&pn=SWNORTH0000001&sn=SW2341N0000101&level=0%2C2&handle=0&atype=inverter&from=2026-11-01&to=2026-11-07&hidden=1',
    );
    expect(writeListState(ALARM_LIST_SPEC, read('')).toString()).toBe('');
  });

  it('drops invalid values: unknown tab, device type, status, a reversed or half date range', () => {
    expect(read('tab=x&atype=toaster&handle=7&from=2026-11-07&to=2026-11-01')).toMatchObject({
      tab: 'current',
      atype: '',
      handle: -1,
      from: '',
      to: '',
    });
    expect(read('from=2026-11-07')).toMatchObject({ from: '', to: '' });
    expect(readLevels('3,a,1')).toEqual([1, 3]);
  });

  it('maps to webQueryPlantsWarning: ongoing or ended, CSV levels, the day range half-open in the viewer timezone', () => {
    expect(alarmListParams(read(''), 3600)).toEqual({ page: 0, pagesize: 10, state: 1 });
    expect(
      alarmListParams(
        read(
          'tab=history&page=3&size=20&q=%20SW%20&pid=4&level=1,2&handle=1&atype=battery&from=2026-11-01&to=2026-11-30&hidden=1&pn=P&sn=S',
        ),
        -18000,
      ),
    ).toEqual({
      page: 2,
      pagesize: 20,
      state: 2,
      search: 'SW',
      plantid: 4,
      pn: 'P',
      sn: 'S',
      level: '1,2',
      handle: 1,
      atype: 'battery',
      sdate: '2026-11-01',
      edate: '2026-12-01',
      tz: -18000,
      hidden: 1,
    });
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });
  it("an alarm mail's link (?id=) asks for that one alarm, ongoing or ended, and keeps it in the address", () => {
    const s = read('id=42');
    expect(s.id).toBe(42);
    const p = alarmListParams(s, 3600);
    expect(p.id).toBe(42);
    expect(p.state).toBeUndefined();
    expect(writeListState(ALARM_LIST_SPEC, s).get('id')).toBe('42');
    expect(read('id=abc').id).toBe(0);
    expect(alarmListParams(read(''), 0).id).toBeUndefined();
  });
});
