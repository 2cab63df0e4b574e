/** Data details: every sample of a day (queryDeviceDataOneDayPaging), paged on the server. */
import { useState } from 'react';
import { Alert, DatePicker, Empty, Flex, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import { useDayData } from '../api/queries';
import type { DeviceTupleLike } from '../paths';

export function DataTab({ device }: { device: DeviceTupleLike }) {
  const { t } = useTranslation();
  const [date, setDate] = useState<Dayjs>(() => dayjs());
  const [paging, setPaging] = useState({ current: 1, pageSize: 20 });
  const q = useDayData(device, date.format('YYYY-MM-DD'), paging.current - 1, paging.pageSize);
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
          allowClear={false}
          disabledDate={(d) => d.isAfter(dayjs(), 'day')}
          onChange={(d) => {
            if (!d) return;
            setDate(d);
            setPaging((p) => ({ ...p, current: 1 }));
          }}
        />
      </Flex>
      {q.isError ? (
        <Alert type="error" showIcon message={t('devices:detail.loadFailed')} description={apiErrorText(q.error)} />
      ) : (
        <Table
          size="small"
          loading={q.isFetching}
          rowKey={(r) => r.field[0] ?? r.field[1] ?? ''}
          dataSource={data?.row ?? []}
          columns={columns}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('devices:detail.noData')} /> }}
          pagination={{
            current: paging.current,
            pageSize: paging.pageSize,
            total: data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: [10, 20, 50],
            showTotal: (n) => t('devices:list.total', { n }),
            onChange: (current, pageSize) => setPaging({ current: pageSize !== paging.pageSize ? 1 : current, pageSize }),
          }}
        />
      )}
    </Flex>
  );
}
