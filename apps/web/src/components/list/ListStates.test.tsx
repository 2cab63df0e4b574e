import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { ApiCallError } from '@sunwatch/protocol';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import i18n from '../../i18n';
import { intParam, type ListSpec } from './list-state';
import { ListStates, emptyLocale, gridLoading, listPagination, tableLoading, useListState, type ListQueryLike } from '.';

interface S {
  current: number;
  pageSize: number;
  search: string;
  status: number;
}
const SPEC: ListSpec<S> = {
  defaultPageSize: 12,
  pageSizes: [12, 24],
  readFilters: (q) => ({ status: intParam(q.get('status'), 0) }),
  writeFilters: (s, q) => {
    if (s.status) q.set('status', String(s.status));
  },
};

function harness(initial: string, keep?: readonly string[]) {
  const where = { current: '' };
  function Where({ children }: { children: ReactNode }) {
    const loc = useLocation();
    where.current = loc.pathname + loc.search;
    return <>{children}</>;
  }
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={[initial]}>
      <Where>{children}</Where>
    </MemoryRouter>
  );
  return { where, ...renderHook(() => useListState(SPEC, { keep }), { wrapper }) };
}

const q = (over: Partial<ListQueryLike>): ListQueryLike => ({
  isError: false,
  error: null,
  isPending: false,
  isFetching: false,
  isPlaceholderData: false,
  ...over,
});

beforeEach(async () => {
  await i18n.changeLanguage('en_US');
});
afterEach(cleanup);

describe('useListState', () => {
  it('reads the address bar and writes changes back to it', () => {
    const { result, where } = harness('/list?page=3&status=2&q=roof');
    expect(result.current[0]).toEqual({ current: 3, pageSize: 12, search: 'roof', status: 2 });
    act(() => result.current[1]({ current: 4 }));
    expect(where.current).toBe('/list?page=4&q=roof&status=2');
    expect(result.current[0].current).toBe(4);
  });

  it('goes back to page 1 on a filter or search change', () => {
    const { result, where } = harness('/list?page=3&status=2');
    act(() => result.current[1]({ status: 4 }));
    expect(where.current).toBe('/list?status=4');
    act(() => result.current[1]({ current: 2 }));
    act(() => result.current[1]({ search: ' inverter ' }));
    expect(where.current).toBe('/list?q=inverter&status=4');
  });

  it('drops foreign parameters unless the page keeps them (a detail tab)', () => {
    const dropped = harness('/d?tab=data&x=1&page=2');
    act(() => dropped.result.current[1]({ current: 3 }));
    expect(dropped.where.current).toBe('/d?page=3');
    cleanup();
    const kept = harness('/d?tab=data&x=1&page=2', ['tab']);
    act(() => kept.result.current[1]({ status: 1 }));
    expect(kept.where.current).toBe('/d?tab=data&status=1');
  });

  it('pager: a new page size goes back to page 1', () => {
    const { result, where } = harness('/list?page=3');
    const [state, update] = result.current;
    const pager = listPagination(state, 100, update, { pageSizes: SPEC.pageSizes, showTotal: (n) => `${n}` });
    expect(pager).toMatchObject({ current: 3, pageSize: 12, total: 100, pageSizeOptions: [12, 24] });
    act(() => pager.onChange!(3, 24));
    expect(where.current).toBe('/list?size=24');
  });
});

describe('list states', () => {
  it('shows the error notice with the error text in place of the list', () => {
    render(
      <ListStates query={{ isError: true, error: new ApiCallError(12, 'no record', 'No record found') }} errorTitle="Could not load">
        <div data-testid="rows" />
      </ListStates>,
    );
    expect(screen.getByTestId('list-error').textContent).toContain('Could not load');
    expect(screen.getByTestId('list-error').textContent).toContain('No record found');
    expect(screen.queryByTestId('rows')).toBeNull();
  });

  it('shows the list when there is no error', () => {
    render(
      <ListStates query={{ isError: false, error: null }} errorTitle="Could not load">
        <div data-testid="rows" />
      </ListStates>,
    );
    expect(screen.getByTestId('rows')).toBeTruthy();
    expect(screen.queryByTestId('list-error')).toBeNull();
  });

  it('renders the empty text', () => {
    render(<>{emptyLocale('Nothing here').emptyText}</>);
    expect(screen.getByText('Nothing here')).toBeTruthy();
  });

  it('loading: tables on every fetch, grids on the first load and on a page change only', () => {
    expect(tableLoading(q({ isFetching: true }))).toBe(true);
    expect(tableLoading(q({}))).toBe(false);
    expect(gridLoading(q({ isPending: true }))).toBe(true);
    expect(gridLoading(q({ isFetching: true }))).toBe(false); // a refresh of the shown page
    expect(gridLoading(q({ isFetching: true, isPlaceholderData: true }))).toBe(true);
  });
});
