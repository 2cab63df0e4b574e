import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ApiCallError } from '@sunwatch/protocol';
import '../../i18n';
import { type ListQueryLike, type PagedState } from '.';
import { PagedTable } from './PagedTable';

interface Row {
  id: number;
  name: string;
}
const q = (over: Partial<ListQueryLike> = {}): ListQueryLike => ({
  isError: false,
  error: null,
  isPending: false,
  isFetching: false,
  isPlaceholderData: false,
  ...over,
});
const state: PagedState = { current: 2, pageSize: 10, search: '' };
const columns = [{ title: 'Name', dataIndex: 'name', key: 'name' }];

afterEach(cleanup);

describe('PagedTable', () => {
  it('shows the rows with their attributes and the pager bound to the list state', () => {
    const update = vi.fn();
    const { container } = render(
      <PagedTable<Row>
        query={q()}
        rows={[
          { id: 7, name: 'alpha' },
          { id: 8, name: 'beta' },
        ]}
        total={25}
        rowKey="id"
        columns={columns}
        pager={{ state, update, pageSizes: [10, 20], showTotal: (n) => `${n} in all`, small: true }}
        errorTitle="Could not load"
        emptyText="Nothing here"
        onRow={(r) => ({ 'data-testid': 'a-row', 'data-id': r.id })}
        data-testid="a-table"
      />,
    );
    const rows = screen.getAllByTestId('a-row');
    expect(rows.map((r) => r.getAttribute('data-id'))).toEqual(['7', '8']);
    expect(rows[0]!.textContent).toContain('alpha');
    expect(screen.getByTestId('a-table')).toBeTruthy();
    expect(screen.getByText('25 in all')).toBeTruthy();
    expect(container.querySelector('.ant-pagination-item-active')?.textContent).toBe('2');
    expect(container.querySelector('.ant-pagination-mini')).toBeTruthy();
    fireEvent.click(container.querySelector('.ant-pagination-item-3')!);
    expect(update).toHaveBeenCalledWith({ current: 3, pageSize: 10 });
  });

  it('shows the empty text without rows and the error notice in place of the table', () => {
    const props = {
      rows: undefined,
      total: undefined,
      rowKey: 'id' as const,
      columns,
      pager: { state, update: () => undefined, pageSizes: [10], showTotal: (n: number) => `${n}` },
      errorTitle: 'Could not load',
      emptyText: 'Nothing here',
    };
    render(<PagedTable<Row> query={q()} {...props} />);
    expect(screen.getByText('Nothing here')).toBeTruthy();
    cleanup();
    render(
      <PagedTable<Row> query={q({ isError: true, error: new ApiCallError(12, 'x', 'No record found') })} {...props} />,
    );
    expect(screen.getByTestId('list-error').textContent).toContain('Could not load');
    expect(screen.queryByText('Nothing here')).toBeNull();
  });
});
