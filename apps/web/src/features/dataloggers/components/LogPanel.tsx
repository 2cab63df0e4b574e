/**
 * The datalogger log (spec §2 "Datalogger log", §5): connections, disconnections, registrations,
 * commands, acknowledgements and errors over a range of at most 3 days without future dates (in
 * the datalogger's calendar), newest first, server-paged, filtered by kind.
 */
import { useState } from 'react';
import { Alert, DatePicker, Flex, Select, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { AUTH_FAIL_REASONS, COLLECTOR_EVENT_KINDS, errorMessageKey, type CollectorEventKind, type CollectorLogRow } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { ruleText } from '../../../app/rule-text';
import { usePagedQuery } from '../../../components/list';
import { dataloggerKeys } from '../api/keys';
import { defaultLogRange, logDayDisabled, logRangeError } from '../model/log-range';
import { dayIn } from '../model/reboot';

const PAGE_SIZE = 20;

export function LogPanel({ pn, timezone }: { pn: string; timezone: number }) {
  const { t } = useTranslation();
  const today = dayIn(timezone, Date.now());
  const [range, setRange] = useState<[string, string]>(() => defaultLogRange(today));
  const [picking, setPicking] = useState<string>();
  const [kind, setKind] = useState<CollectorEventKind | undefined>();
  const [page, setPage] = useState(1);
  const rangeError = logRangeError(range[0], range[1], today);
  const params = { pn, sdate: range[0], edate: range[1], kind, page: page - 1, pagesize: PAGE_SIZE };
  const log = usePagedQuery(dataloggerKeys.log(params), () => api.call('webQueryCollectorLog', params), !rangeError);

  return (
    <Flex vertical gap={12} data-testid="dl-log">
      <Flex wrap gap={12} align="center">
        <DatePicker.RangePicker
          value={[dayjs(range[0]), dayjs(range[1])]}
          allowClear={false}
          aria-label={t('dataloggers:log.range')}
          disabledDate={(d: Dayjs) => logDayDisabled(d.format('YYYY-MM-DD'), today, picking)}
          onCalendarChange={(v) => setPicking(v?.[0] && !v[1] ? v[0].format('YYYY-MM-DD') : undefined)}
          onOpenChange={(open) => !open && setPicking(undefined)}
          onChange={(v) => {
            if (!v?.[0] || !v[1]) return;
            setRange([v[0].format('YYYY-MM-DD'), v[1].format('YYYY-MM-DD')]);
            setPage(1);
          }}
          data-testid="dl-log-range"
        />
        <Select
          allowClear
          value={kind}
          onChange={(k) => {
            setKind(k);
            setPage(1);
          }}
          placeholder={t('dataloggers:log.allKinds')}
          style={{ width: 200 }}
          options={COLLECTOR_EVENT_KINDS.map((k) => ({ value: k, label: t(`dataloggers:log.kinds.${k}`) }))}
          data-testid="dl-log-kind"
        />
        <Typography.Text type="secondary">{t('dataloggers:log.rangeHint')}</Typography.Text>
      </Flex>
      {rangeError && <Alert type="error" showIcon message={ruleText(rangeError)} />}
      {log.isError ? (
        <Alert type="error" showIcon message={t('dataloggers:detail.loadFailed')} />
      ) : (
        <Table<CollectorLogRow>
          size="small"
          rowKey="id"
          loading={log.isFetching}
          dataSource={log.data?.log ?? []}
          locale={{ emptyText: t('dataloggers:log.empty') }}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: log.data?.total ?? 0,
            showSizeChanger: false,
            onChange: setPage,
          }}
          columns={[
            { key: 'gts', title: t('dataloggers:log.time'), dataIndex: 'gts', width: 170 },
            {
              key: 'kind',
              title: t('dataloggers:log.kind'),
              render: (_, r) => (
                <Tag color={r.kind === 'error' || r.kind === 'timeout' || r.kind === 'auth_fail' ? 'error' : r.kind === 'connect' ? 'success' : undefined} data-kind={r.kind}>
                  {t(`dataloggers:log.kinds.${r.kind}`, { defaultValue: r.kind })}
                </Tag>
              ),
            },
            { key: 'cmd', title: t('dataloggers:log.command'), render: (_, r) => r.cmd || '--' },
            {
              key: 'result',
              title: t('dataloggers:log.result'),
              render: (_, r) =>
                r.kind === 'command' || r.kind === 'ack' || r.kind === 'timeout'
                  ? r.result === 0
                    ? t('dataloggers:log.ok')
                    : `${t(errorMessageKey(r.result, 'deviceControl'), { ns: 'errors', defaultValue: String(r.result) })} (${r.result})`
                  : '--',
            },
            { key: 'usr', title: t('dataloggers:log.user'), render: (_, r) => r.usr || '--' },
            {
              key: 'detail',
              title: t('dataloggers:log.detail'),
              render: (_, r) => {
                // A refused sign-in starts with its reason code (AUTH_FAIL_REASONS, issue 14).
                const [reason = '', ...rest] = r.detail.split(' ');
                if (r.kind !== 'auth_fail' || !(AUTH_FAIL_REASONS as readonly string[]).includes(reason)) return r.detail || '--';
                return [t(`dataloggers:log.reasons.${reason}`), ...rest].join(' ');
              },
            },
          ]}
        />
      )}
    </Flex>
  );
}
