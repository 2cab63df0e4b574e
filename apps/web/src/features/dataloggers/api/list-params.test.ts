import { describe, expect, it } from 'vitest';
import { readListState, writeListState } from '../../../components/list';
import { DATALOGGER_LIST_SPEC, dataloggerListParams } from './list-params';

const read = (qs: string) => readListState(DATALOGGER_LIST_SPEC, new URLSearchParams(qs));

describe('datalogger list state', () => {
  it('reads paging, search, status and plant from the address bar and writes them back', () => {
    const s = read('page=3&size=20&q=SWNORTH&status=2&pid=7');
    expect(s).toMatchObject({ current: 3, pageSize: 20, search: 'SWNORTH', statusFilter: 2, pid: 7 });
    expect(writeListState(DATALOGGER_LIST_SPEC, s).toString()).toBe('page=3&size=20&q=SWNORTH&status=2&pid=7');
  });

  it('falls back to defaults for unknown filters', () => {
    expect(read('status=9&pid=x')).toMatchObject({ statusFilter: 0, pid: 0, current: 1, pageSize: 10 });
    expect(writeListState(DATALOGGER_LIST_SPEC, read('status=9')).toString()).toBe('');
  });

  it('sends the 0-based page, the trimmed search and only the filters that are set', () => {
    expect(dataloggerListParams(read('page=2&q=%20Garage%20&status=1'))).toEqual({
      page: 1,
      pagesize: 10,
      search: 'Garage',
      statusFilter: 1,
    });
    expect(dataloggerListParams(read(''))).toEqual({ page: 0, pagesize: 10 });
  });
});
