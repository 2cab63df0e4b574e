import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { checkHelpform } from './helpform-check';

const today = dayjs('2026-11-25');
const good = { sn: 'SW2341N0000101', sn2: 'SW2341N0000101', devaddr: 1, devaddr2: 1, devcode: 2341, range: [dayjs('2026-11-20'), today] as [dayjs.Dayjs, dayjs.Dayjs] };

describe('checkHelpform', () => {
  it('passes matching SN and address, a device code and a range', () => {
    expect(checkHelpform(good, today)).toEqual({
      ok: true,
      values: { sn: 'SW2341N0000101', sn2: 'SW2341N0000101', devaddr: 1, devaddr2: 1, devcode: 2341, sdate: '2026-11-20', edate: '2026-11-25' },
    });
  });
  it('refuses SNs or addresses that differ', () => {
    expect(checkHelpform({ ...good, sn2: 'SW2341N0000102' }, today)).toEqual({ ok: false, problems: ['snMismatch'] });
    expect(checkHelpform({ ...good, devaddr2: 2 }, today)).toEqual({ ok: false, problems: ['addrMismatch'] });
  });
  it('lists every missing part and a range beyond 31 days or in the future', () => {
    expect(checkHelpform({}, today)).toEqual({ ok: false, problems: ['sn', 'devaddr', 'devcode', 'empty'] });
    expect(checkHelpform({ ...good, range: [dayjs('2026-10-01'), today] }, today)).toEqual({ ok: false, problems: ['tooLong'] });
    expect(checkHelpform({ ...good, range: [today, dayjs('2026-11-27')] }, today)).toEqual({ ok: false, problems: ['future'] });
  });
});
