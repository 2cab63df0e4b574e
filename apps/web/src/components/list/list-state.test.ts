import { describe, expect, it } from 'vitest';
import {
  enumFilter,
  enumParam,
  intParam,
  nextListState,
  noFilters,
  readListState,
  wirePaging,
  writeListState,
  type ListSpec,
} from './list-state';

interface TestState {
  current: number;
  pageSize: number;
  search: string;
  kind: 'a' | 'b';
  level: number;
}

const SPEC: ListSpec<TestState> = {
  defaultPageSize: 10,
  pageSizes: [10, 20, 50],
  readFilters: (q) => ({ kind: q.get('kind') === 'b' ? 'b' : 'a', level: intParam(q.get('level'), 0) }),
  writeFilters(s, q) {
    if (s.kind !== 'a') q.set('kind', s.kind);
    if (s.level) q.set('level', String(s.level));
  },
};

const DEFAULTS: TestState = { current: 1, pageSize: 10, search: '', kind: 'a', level: 0 };
const read = (q: string) => readListState(SPEC, new URLSearchParams(q));

describe('list kit: state in the address bar', () => {
  it('reads defaults from an empty address bar and writes nothing for them', () => {
    expect(read('')).toEqual(DEFAULTS);
    expect(writeListState(SPEC, DEFAULTS).toString()).toBe('');
  });

  it('round-trips page, size, search and filters', () => {
    const s: TestState = { current: 3, pageSize: 20, search: 'roof', kind: 'b', level: 4 };
    const q = writeListState(SPEC, s);
    expect(Object.fromEntries(q)).toEqual({ page: '3', size: '20', q: 'roof', kind: 'b', level: '4' });
    expect(readListState(SPEC, q)).toEqual(s);
  });

  it('trims the search and drops invalid values', () => {
    expect(writeListState(SPEC, { ...DEFAULTS, search: '  x ' }).get('q')).toBe('x');
    expect(read('page=-2&size=500&level=abc&kind=zzz')).toEqual(DEFAULTS);
    expect(read('page=1.5&size=0')).toEqual(DEFAULTS);
    expect(read('size=50').pageSize).toBe(50);
  });

  it('keeps the address bar parameters of other lists and views apart from its own', () => {
    expect(read('mode=list&page=2')).toEqual({ ...DEFAULTS, current: 2 });
  });
});

describe('list kit: paging', () => {
  const onPage4: TestState = { ...DEFAULTS, current: 4, search: 'x' };

  it('goes back to page 1 when the search or a filter changes', () => {
    expect(nextListState(onPage4, { search: 'y' }).current).toBe(1);
    expect(nextListState(onPage4, { kind: 'b' })).toEqual({ ...onPage4, kind: 'b', current: 1 });
    expect(nextListState(onPage4, { level: 2 }).current).toBe(1);
  });

  it('keeps the filters when paging and goes back to page 1 on a new page size', () => {
    expect(nextListState(onPage4, { current: 5 })).toEqual({ ...onPage4, current: 5 });
    expect(nextListState(onPage4, { current: 4, pageSize: 20 })).toEqual({ ...onPage4, current: 1, pageSize: 20 });
    expect(nextListState(onPage4, { current: 2, pageSize: 10 }).current).toBe(2);
  });

  it('a patch that names the page keeps it (a view switch that keeps paging)', () => {
    expect(nextListState(onPage4, { kind: 'b', current: onPage4.current }).current).toBe(4);
  });

  it('sends the wire 0-based page and a page size within 1…50', () => {
    expect(wirePaging(DEFAULTS)).toEqual({ page: 0, pagesize: 10 });
    expect(wirePaging({ ...DEFAULTS, current: 3, pageSize: 20 })).toEqual({ page: 2, pagesize: 20 });
    expect(wirePaging({ ...DEFAULTS, current: 0, pageSize: 500 })).toEqual({ page: 0, pagesize: 50 });
  });
});

describe('enumFilter', () => {
  interface StatusState {
    current: number;
    pageSize: number;
    search: string;
    status: 'all' | 'enabled' | 'disabled';
  }
  const STATUS_SPEC: ListSpec<StatusState> = {
    defaultPageSize: 10,
    pageSizes: [10, 20],
    ...enumFilter('status', ['all', 'enabled', 'disabled'], 'all'),
  };
  const read = (s: string) => readListState(STATUS_SPEC, new URLSearchParams(s));

  it('reads a known value and falls back to the default for an absent or unknown one', () => {
    expect(read('status=enabled').status).toBe('enabled');
    expect(read('status=disabled&page=2')).toEqual({ current: 2, pageSize: 10, search: '', status: 'disabled' });
    expect(read('').status).toBe('all');
    expect(read('status=bogus').status).toBe('all');
    expect(read('status=').status).toBe('all');
  });

  it('writes only a value other than the default, and round-trips', () => {
    const base = read('');
    expect(writeListState(STATUS_SPEC, base).toString()).toBe('');
    expect(writeListState(STATUS_SPEC, { ...base, status: 'disabled' }).toString()).toBe('status=disabled');
    const q = writeListState(STATUS_SPEC, { ...base, current: 3, status: 'enabled' });
    expect(readListState(STATUS_SPEC, q)).toEqual({ ...base, current: 3, status: 'enabled' });
  });

  it('keeps its own parameter name and default', () => {
    const f = enumFilter('view', ['devcode', 'datalogger'], 'devcode');
    expect(f.readFilters(new URLSearchParams('view=datalogger'))).toEqual({ view: 'datalogger' });
    expect(f.readFilters(new URLSearchParams('status=datalogger'))).toEqual({ view: 'devcode' });
    const q = new URLSearchParams();
    f.writeFilters({ view: 'devcode' }, q);
    expect(q.toString()).toBe('');
  });
});

describe('noFilters', () => {
  it('reads and writes paging and search only', () => {
    const spec: ListSpec<{ current: number; pageSize: number; search: string }> = {
      defaultPageSize: 10,
      pageSizes: [10],
      ...noFilters,
    };
    const s = readListState(spec, new URLSearchParams('page=2&q=x&status=1'));
    expect(s).toEqual({ current: 2, pageSize: 10, search: 'x' });
    expect(writeListState(spec, s).toString()).toBe('page=2&q=x');
  });
});

describe('enumParam', () => {
  it('takes one of the values, else the fallback (which need not be one of them)', () => {
    const STATES = ['on', 'off'] as const;
    expect(enumParam('off', STATES, '')).toBe('off');
    expect(enumParam('bogus', STATES, '')).toBe('');
    expect(enumParam(null, STATES, 'on')).toBe('on');
    expect(enumParam('', STATES, 'on')).toBe('on');
  });
});
