/**
 * setting/rechargeRecord (issue 15; /generalNew for owners, /adminNew for distributors, group
 * accounts and manufacturers): the recharge orders the caller may see (the server scopes them),
 * searched (order number, PN, CCID), filtered (state, area, payment method, creation days) and
 * paged on the server, state in the address bar; an order opens in a drawer with its cards and
 * their renewal; an unpaid order the caller placed links to rechargePay; the filtered list
 * exports as xlsx. docs/money/recharge-records.md.
 */
import { useState } from 'react';
import { Button, Card, Space, Tag, Tooltip, type TableColumnsType } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { RECHARGE_EXPORT_MAX_ROWS, type RechargeRecordRow } from '@sunwatch/protocol';
import { saveUrlAs } from '../../../app/download';
import { notice, showApiError } from '../../../app/notify';
import { useListState } from '../../../components/list';
import { currentLocale } from '../../../i18n';
import { bcp47 } from '../../shared/charts/format';
import { RechargeOrderList } from '../../shared/recharge/OrderList';
import {
  CARD_COLORS,
  RECHARGE_LIST_SPEC,
  formatMoney,
  rechargeFilterParams,
  rechargeListParams,
} from '../../shared/recharge/format';
import { rechargeOrderColumns } from '../../shared/recharge/order-columns';
import { exportRechargeRecords, useRechargeRecords } from '../api/queries';
import { RecordDrawer } from '../components/RecordDrawer';

/** The list's test ids (`records-search`, …, `records-table`, rows `record-row`) and search box width. */
const LIST_VIEW = { testId: 'records', rowTestId: 'record-row', searchWidth: 260 };

/** err 13: more orders than an export may hold; 264: nothing to export. */
const TOO_MANY = 13;
const NOTHING = 264;

/** A base64 file as a download. */
function saveBase64(data: string, mime: string, name: string) {
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: mime }));
  saveUrlAs(url, name);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export default function RechargeRecordPage() {
  const { t } = useTranslation('rechargeRecords');
  const { pathname } = useLocation();
  const [state, update] = useListState(RECHARGE_LIST_SPEC);
  const list = useRechargeRecords(rechargeListParams(state));
  const [open, setOpen] = useState<number>();
  const [exporting, setExporting] = useState(false);
  const locale = bcp47(currentLocale());
  // rechargePay sits beside this page in the same settings layout of the area.
  const payPath = `/${pathname.split('/')[1] ?? ''}/setting/rechargePay`;
  const payLink = (o: RechargeRecordRow) => `${payPath}?order=${encodeURIComponent(o.orderNo)}`;

  const runExport = async () => {
    setExporting(true);
    try {
      const f = await exportRechargeRecords({
        ...rechargeFilterParams(state),
        tz: -new Date().getTimezoneOffset() * 60,
      });
      saveBase64(f.data, f.mime, f.name);
      notice().success(t('exportDone', { n: f.rows }));
    } catch (e) {
      const code = (e as { err?: number }).err;
      if (code === TOO_MANY)
        notice().warning(t('exportTooMany', { n: RECHARGE_EXPORT_MAX_ROWS.toLocaleString(locale) }));
      else if (code === NOTHING) notice().info(t('exportNothing'));
      else showApiError(e);
    } finally {
      setExporting(false);
    }
  };

  const col = rechargeOrderColumns<RechargeRecordRow>({ t, locale, testId: 'record', onOpen: setOpen });
  const columns: TableColumnsType<RechargeRecordRow> = [
    col.orderNo(180),
    col.status(110),
    col.cards(160),
    col.created(140, 'col.time'),
    { title: t('col.package'), dataIndex: 'package', key: 'package', width: 110, render: (v: string) => v || '—' },
    { title: t('col.months'), dataIndex: 'months', key: 'months', width: 80, align: 'right' },
    col.amount(110),
    {
      title: t('col.discount'),
      key: 'discount',
      width: 100,
      align: 'right',
      render: (_: unknown, o) => (o.discount > 0 ? formatMoney(o.discount, o.currency, locale) : '—'),
    },
    {
      title: t('col.method'),
      key: 'method',
      width: 130,
      render: (_: unknown, o) => (o.method ? t(`method.${o.method}`) : '—'),
    },
    { title: t('col.channel'), dataIndex: 'channel', key: 'channel', width: 90, render: (v: string) => v || '—' },
    {
      title: t('col.area'),
      key: 'area',
      width: 130,
      render: (_: unknown, o) => (o.area ? t(`area.${o.area}`) : '—'),
    },
    {
      title: t('col.load'),
      key: 'load',
      width: 90,
      align: 'right',
      render: (_: unknown, o) => (o.loads.length ? o.loads.join(', ') : '—'),
    },
    {
      title: t('col.cardStatus'),
      key: 'cardStatus',
      width: 120,
      render: (_: unknown, o) => (
        <Space size={2} wrap>
          {o.cardStatuses.map((c) => (
            <Tag key={c} color={CARD_COLORS[c]}>
              {t(`card.${c}`)}
            </Tag>
          ))}
        </Space>
      ),
    },
    col.account(120),
    {
      title: t('col.actions'),
      key: 'actions',
      width: 90,
      render: (_: unknown, o) =>
        o.status === 'unpaid' && o.own ? (
          <Link to={payLink(o)} data-testid="record-pay">
            <Button size="small" type="primary">
              {t('pay')}
            </Button>
          </Link>
        ) : null,
    },
  ];

  return (
    <Card
      title={t('title')}
      size="small"
      data-testid="records-page"
      extra={
        <Tooltip title={t('exportHint', { n: RECHARGE_EXPORT_MAX_ROWS.toLocaleString(locale) })}>
          <Button
            icon={<DownloadOutlined />}
            loading={exporting}
            disabled={!list.data || list.data.total === 0}
            onClick={() => void runExport()}
            data-testid="records-export"
          >
            {t('export')}
          </Button>
        </Tooltip>
      }
    >
      <RechargeOrderList t={t} state={state} update={update} list={list} columns={columns} {...LIST_VIEW} />
      {open !== undefined && <RecordDrawer id={open} payPath={payPath} onClose={() => setOpen(undefined)} />}
    </Card>
  );
}
