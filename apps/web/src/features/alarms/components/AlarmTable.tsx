/**
 * The alarm table of the alarm pages, the device detail's alarm tab and the plant card: type,
 * code, description (in the reader's language, from the server), device (link to its detail),
 * plant (link to its page), owner, device type, occurrence and end time in the plant's timezone,
 * duration, status (who processed it and when), and a Handle button on untreated alarms for
 * accounts that may handle. Rows are selectable for handling many at once.
 */
import { Button, Flex, Space, Table, Tag, Tooltip, Typography, type TableColumnsType, type TablePaginationConfig } from 'antd';
import { CheckOutlined, EyeInvisibleOutlined } from '@ant-design/icons';
import type { AlarmRow } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { emptyLocale, responsiveTable } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { currentLocale } from '../../../i18n';
import { areaFor, deviceDetailPath } from '../../shared/devices/paths';
import { plantPathFrom } from '../../shared/plants/paths';
import { formatDuration } from '../model/duration';
import { alarmDurationMs } from '../model/time';
import { offsetLabel } from '../model/vocabulary';
import { HandleTag, LevelTag } from './AlarmTags';

/** Which columns a table shows: the fleet list, one plant's, one device's. */
export type AlarmTableScope = 'fleet' | 'plant' | 'device';

export interface AlarmTableProps {
  rows: readonly AlarmRow[];
  scope: AlarmTableScope;
  loading: boolean;
  emptyText: string;
  /** Owner column (admin areas). */
  owner?: boolean;
  /** End-time column (history and mixed lists). */
  ended?: boolean;
  /** Handle buttons and row selection. */
  canHandle?: boolean;
  selected?: readonly number[];
  onSelect?: (ids: number[]) => void;
  onHandle?: (ids: number[]) => void;
  pagination: TablePaginationConfig | false;
  /** Clock for ongoing durations (tests). */
  now?: number;
}

function Time({ text, tz }: { text: string; tz: number }) {
  if (!text) return <>--</>;
  return (
    <Tooltip title={offsetLabel(tz)}>
      <span style={{ whiteSpace: 'nowrap' }}>{text}</span>
    </Tooltip>
  );
}

export function AlarmTable(props: AlarmTableProps) {
  const { rows, scope, canHandle, onHandle } = props;
  const { t } = useTranslation();
  const locale = currentLocale();
  const phone = useIsPhone();
  const { pathname } = useLocation();
  const area = areaFor(pathname);
  const now = props.now ?? Date.now();

  const deviceCell = (r: AlarmRow) => {
    const name = r.devalias || r.sn || r.pn;
    const path = r.sn && r.devcode >= 0 ? deviceDetailPath(area, { pn: r.pn, devcode: r.devcode, devaddr: r.devaddr, sn: r.sn }) : undefined;
    return (
      <Flex vertical gap={0}>
        {path ? <Link to={path}>{name}</Link> : <span>{name}</span>}
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {r.sn ? `SN ${r.sn}` : ''}
          {r.sn ? ' · ' : ''}PN {r.pn}
        </Typography.Text>
      </Flex>
    );
  };

  const columns: TableColumnsType<AlarmRow> = [
    { title: t('alarms:field.type'), key: 'level', width: 96, render: (_, r) => <LevelTag level={r.level} /> },
    {
      title: t('alarms:field.desc'),
      key: 'desc',
      render: (_, r) => (
        <Space size={4} wrap>
          <span data-testid="alarm-desc">{r.desc}</span>
          {r.hidden && (
            <Tooltip title={t('alarms:hiddenTag')}>
              <EyeInvisibleOutlined aria-label={t('alarms:hiddenTag')} data-testid="alarm-hidden" />
            </Tooltip>
          )}
        </Space>
      ),
    },
    { title: t('alarms:field.code'), key: 'code', responsive: ['md'], render: (_, r) => r.code },
  ];
  if (scope !== 'device') columns.push({ title: t('alarms:field.device'), key: 'device', render: (_, r) => deviceCell(r) });
  if (scope !== 'device') {
    columns.push({ title: t('alarms:field.deviceType'), key: 'atype', responsive: ['lg'], render: (_, r) => t(`alarms:atype.${r.atype}`) });
  }
  if (scope === 'fleet') {
    columns.push({
      title: t('alarms:field.plant'),
      key: 'plant',
      responsive: ['md'],
      render: (_, r) => {
        if (!r.pid) return '--';
        const path = plantPathFrom(pathname, r.pid);
        const name = r.pname || String(r.pid);
        return (
          <Flex vertical gap={0}>
            {path ? <Link to={path}>{name}</Link> : name}
            {r.address && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {r.address}
              </Typography.Text>
            )}
          </Flex>
        );
      },
    });
    if (props.owner) columns.push({ title: t('alarms:field.owner'), key: 'usr', responsive: ['xl'], render: (_, r) => r.usr || '--' });
  }
  columns.push({ title: t('alarms:field.occurred'), key: 'gts', render: (_, r) => <Time text={r.gts} tz={r.timezone} /> });
  if (props.ended) {
    columns.push({
      title: t('alarms:field.ended'),
      key: 'ets',
      responsive: ['sm'],
      render: (_, r) => (r.ets ? <Time text={r.ets} tz={r.timezone} /> : <Tag color="processing">{t('alarms:ongoing')}</Tag>),
    });
  }
  columns.push(
    {
      title: t('alarms:field.duration'),
      key: 'duration',
      responsive: ['sm'],
      render: (_, r) => {
        const ms = alarmDurationMs(r, now);
        return ms === undefined ? '--' : <span style={{ whiteSpace: 'nowrap' }}>{formatDuration(ms, locale)}</span>;
      },
    },
    { title: t('alarms:field.status'), key: 'handle', render: (_, r) => <HandleTag row={r} /> },
  );
  if (canHandle && onHandle) {
    columns.push({
      title: t('alarms:field.actions'),
      key: 'actions',
      render: (_, r) =>
        r.handle ? null : (
          <Button size="small" icon={<CheckOutlined />} onClick={() => onHandle([r.id])} data-testid={`alarm-handle-${r.id}`}>
            {t('alarms:handle.one')}
          </Button>
        ),
    });
  }

  const layout = responsiveTable(columns, phone, 1);
  const selection =
    canHandle && props.onSelect
      ? {
          selectedRowKeys: [...(props.selected ?? [])],
          onChange: (keys: React.Key[]) => props.onSelect!(keys.map(Number)),
          getCheckboxProps: (r: AlarmRow) => ({ disabled: r.handle === 1, 'aria-label': `${r.id}` }),
        }
      : undefined;

  return (
    <Table<AlarmRow>
      rowKey="id"
      size="middle"
      dataSource={[...rows]}
      loading={props.loading}
      locale={emptyLocale(props.emptyText)}
      pagination={props.pagination}
      rowSelection={selection}
      onRow={(r) => ({ 'data-alarm-id': r.id, 'data-testid': 'alarm-row' }) as React.HTMLAttributes<HTMLElement>}
      {...layout}
    />
  );
}
