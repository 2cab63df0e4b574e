/**
 * The filter row of both recharge order lists (the operator's rechargeRemedy, the rechargeRecord):
 * search, state, service area, payment method and the creation days, on the list kit's filter row.
 * The texts are the page's (`searchPlaceholder`, `allStatuses`, `allAreas`, `allMethods`, `from`,
 * `to`, `status.*`, `area.*`, `method.*`); the test ids carry the page's prefix.
 */
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { RECHARGE_AREAS, RECHARGE_ORDER_STATUSES, RECHARGE_PAYMENT_METHODS } from '@sunwatch/protocol';
import { EnumSelect, FilterRow, ListSearch } from '../../../components/list/FilterRow';
import type { RechargeListState } from './format';

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
