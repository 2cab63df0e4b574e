/**
 * The body of both recharge order lists (the operator's rechargeRemedy, the rechargeRecord): the
 * hint, the filter row (search, state, service area, payment method, creation days; on the list
 * kit's filter row) and the server-paged table of the page's columns. The texts are the page's
 * (`hint`, `searchPlaceholder`, `allStatuses`, `allAreas`, `allMethods`, `from`, `to`, `status.*`,
 * `area.*`, `method.*`, `loadFailed`, `empty`, `total`); the test ids carry the page's prefix.
 */
import { DatePicker, Space, Typography, type TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { RECHARGE_AREAS, RECHARGE_ORDER_STATUSES, RECHARGE_PAYMENT_METHODS } from '@sunwatch/protocol';
import type { ListQueryLike } from '../../../components/list';
import { EnumSelect, FilterRow, ListSearch } from '../../../components/list/FilterRow';
import { PagedTable } from '../../../components/list/PagedTable';
import { RECHARGE_PAGE_SIZES, type RechargeListState } from './format';
import type { RechargeOrderLike } from './order-columns';

/** The hint, the filters and the table; rows are `<rowTestId>` with `data-id` and `data-status`. */
export function RechargeOrderList<R extends RechargeOrderLike>({
  t,
  state,
  update,
  list,
  columns,
  testId,
  rowTestId,
  searchWidth,
}: {
  t: TFunction;
  state: RechargeListState;
  update: (patch: Partial<RechargeListState>) => void;
  list: ListQueryLike & { data?: { orders: R[]; total: number } | undefined };
  columns: TableColumnsType<R>;
  /** The page's test id prefix: the filters' (`<prefix>-search`, …) and `<prefix>-table`. */
  testId: string;
  rowTestId: string;
  searchWidth: number;
}) {
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('hint')}
      </Typography.Paragraph>
      <RechargeFilters t={t} state={state} update={update} testId={testId} searchWidth={searchWidth} />
      <PagedTable<R>
        query={list}
        errorTitle={t('loadFailed')}
        emptyText={t('empty')}
        rows={list.data?.orders}
        total={list.data?.total}
        rowKey="id"
        columns={columns}
        pager={{ state, update, pageSizes: RECHARGE_PAGE_SIZES, showTotal: (n) => t('total', { n }) }}
        onRow={(o) => ({ 'data-testid': rowTestId, 'data-id': o.id, 'data-status': o.status })}
        data-testid={`${testId}-table`}
      />
    </Space>
  );
}

export function RechargeFilters({
  t,
  state,
  update,
  testId,
  searchWidth,
}: {
  t: TFunction;
  state: RechargeListState;
  update: (patch: Partial<RechargeListState>) => void;
  /** The page's test id prefix: `<prefix>-search`, `<prefix>-status-filter`, … `<prefix>-range`. */
  testId: string;
  searchWidth: number;
}) {
  const range: [Dayjs | null, Dayjs | null] = [
    state.from ? dayjs(state.from) : null,
    state.to ? dayjs(state.to) : null,
  ];
  return (
    <FilterRow>
      <ListSearch
        value={state.search}
        onSearch={(search) => update({ search })}
        placeholder={t('searchPlaceholder')}
        width={searchWidth}
        testId={`${testId}-search`}
      />
      <EnumSelect
        id={`${testId}-status-filter`}
        value={state.status}
        values={RECHARGE_ORDER_STATUSES}
        onChange={(status) => update({ status })}
        allLabel={t('allStatuses')}
        label={(s) => t(`status.${s}`)}
        width={150}
        testId={`${testId}-status-filter`}
      />
      <EnumSelect
        id={`${testId}-area-filter`}
        value={state.area}
        values={RECHARGE_AREAS}
        onChange={(area) => update({ area })}
        allLabel={t('allAreas')}
        label={(a) => t(`area.${a}`)}
        width={160}
        testId={`${testId}-area-filter`}
      />
      <EnumSelect
        id={`${testId}-method-filter`}
        value={state.method}
        values={RECHARGE_PAYMENT_METHODS}
        onChange={(method) => update({ method })}
        allLabel={t('allMethods')}
        label={(m) => t(`method.${m}`)}
        width={170}
        testId={`${testId}-method-filter`}
      />
      <DatePicker.RangePicker
        value={range}
        allowEmpty={[true, true]}
        onChange={(r) => update({ from: r?.[0]?.format('YYYY-MM-DD') ?? '', to: r?.[1]?.format('YYYY-MM-DD') ?? '' })}
        placeholder={[t('from'), t('to')]}
        style={{ width: 260, maxWidth: '100%' }}
        data-testid={`${testId}-range`}
      />
    </FilterRow>
  );
}
