/**
 * Data details: every sample of a day (queryDeviceDataOneDayPaging), paged on the server. The
 * day is the plant's (default: the plant's today), as the server reads it.
 */
import { useState } from 'react';
import { Alert, DatePicker, Empty, Flex, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from '../../../app/notify';
import { isAfterPlantToday } from '../../../app/plant-day';
import { useDayData, usePlantToday } from '../api/queries';
import type { DeviceTupleLike } from '../../shared/devices/paths';

export function DataTab({ device }: { device: DeviceTupleLike }) {
  const { t } = useTranslation();
  const today = usePlantToday(device);
  const [picked, setPicked] = useState<Dayjs | undefined>(undefined);
  const date = picked ?? today;
  const [paging, setPaging] = useState({ current: 1, pageSize: 20 });
  const q = useDayData(device, date?.format('YYYY-MM-DD'), paging.current - 1, paging.pageSize);
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
            if (!d) return;
            setPicked(d);
            setPaging((p) => ({ ...p, current: 1 }));
          }}
        />
      </Flex>
      {q.isError ? (
        <Alert type="error" showIcon message={t('devices:detail.loadFailed')} description={apiErrorText(q.error)} />
      ) : (
        <Table
          size="small"
          loading={!date || q.isFetching}
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
