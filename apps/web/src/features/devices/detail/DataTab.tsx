/**
 * Data details: every sample of a day (queryDeviceDataOneDayPaging), paged on the server. The
 * day is the plant's (default: the plant's today), as the server reads it.
 */
import { DatePicker, Flex, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { isAfterPlantToday } from '../../../app/plant-day';
import { ListStates, emptyLocale, listPagination, useListState, type ListSpec } from '../../../components/list';
import { useDayData, usePlantToday } from '../api/queries';
import type { DeviceTupleLike } from '../../shared/devices/paths';

interface DayDataState {
  current: number;
  pageSize: number;
  search: string;
  /** The picked plant day ("YYYY-MM-DD"); empty: the plant's today. */
  date: string;
}

const DAY_PAGE_SIZES = [10, 20, 50];

/** The tab's list state in the address bar beside the page's `tab`: page, size and `date`. */
export const DAY_DATA_SPEC: ListSpec<DayDataState> = {
  defaultPageSize: 20,
  pageSizes: DAY_PAGE_SIZES,
  readFilters: (q) => {
    const date = q.get('date') ?? '';
    return { date: /^\d{4}-\d{2}-\d{2}$/.test(date) && dayjs(date).isValid() ? date : '' };
  },
  writeFilters(s, q) {
    if (s.date) q.set('date', s.date);
  },
};

export function DataTab({ device }: { device: DeviceTupleLike }) {
  const { t } = useTranslation();
  const today = usePlantToday(device);
  const [state, update] = useListState(DAY_DATA_SPEC, { keep: ['tab'] });
  const date = state.date ? dayjs(state.date) : today;
  const q = useDayData(device, date?.format('YYYY-MM-DD'), state.current - 1, state.pageSize);
  const data = q.data;
  // field[0] is the record id, field[1] the time; the rest follow title[] from index 2.
  const titles = data?.title ?? [];
  const columns = titles
    .map((h, i) => ({ h, i }))
    .filter(({ h, i }) => i !== 0 && h.isDisplay !== false)
    .map(({ h, i }) => ({
      title: h.unit ? `${h.title} (${h.unit})` : h.title,
      key: String(i),
      fixed: i === 1 ? ('left' as const) : undefined,
      render: (_: unknown, r: { field: string[]; realtime: boolean }) =>
        i === 1 ? (
          <span style={{ whiteSpace: 'nowrap' }}>
            {r.field[1]} {r.realtime && <Tag color="processing">{t('devices:data.realtime')}</Tag>}
          </span>
        ) : (
          (r.field[i] ?? '--')
        ),
    }));

  return (
    <Flex vertical gap={16}>
      <Flex gap={12} align="center">
        <DatePicker
          value={date}
          disabled={!date}
          allowClear={false}
          disabledDate={(d) => !!today && isAfterPlantToday(d, today)}
          onChange={(d) => {
            if (d) update({ date: d.format('YYYY-MM-DD') });
          }}
        />
      </Flex>
      <ListStates query={q} errorTitle={t('devices:detail.loadFailed')}>
        <Table
          size="small"
          loading={!date || q.isFetching}
          rowKey={(r) => r.field[0] ?? r.field[1] ?? ''}
          dataSource={data?.row ?? []}
          columns={columns}
          scroll={{ x: 'max-content' }}
          locale={emptyLocale(t('devices:detail.noData'))}
          pagination={listPagination(state, data?.total ?? 0, update, {
            pageSizes: DAY_PAGE_SIZES,
            showTotal: (n) => t('devices:list.total', { n }),
          })}
        />
      </ListStates>
    </Flex>
  );
}
