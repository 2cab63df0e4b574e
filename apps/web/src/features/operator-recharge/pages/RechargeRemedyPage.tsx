/**
 * /adminNewStatr/home/rechargeRemedy (issue 14, operator only): the platform's recharge orders,
 * searched (order number, PN, CCID, account), filtered (state, area, payment method, creation
 * days) and paged on the server, state in the address bar. An order opens in a drawer with its
 * cards and remedy history; a remedy corrects its state with a reason, offering only the moves
 * the protocol's transition table allows. docs/operator/recharge-remedy.md.
 */
import { useState } from 'react';
import { Button, Card, DatePicker, Flex, Input, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  RECHARGE_AREAS,
  RECHARGE_ORDER_STATUSES,
  RECHARGE_PAYMENT_METHODS,
  type RechargeOrderRow,
} from '@sunwatch/protocol';
import { useListState } from '../../../components/list';
import { PagedTable } from '../../../components/list/PagedTable';
import { currentLocale } from '../../../i18n';
import { bcp47 } from '../../shared/charts/format';
import { useRechargeOrders } from '../api/queries';
import { OrderDrawer } from '../components/OrderDrawer';
import { RemedyDialog } from '../components/RemedyDialog';
import {
  RECHARGE_LIST_SPEC,
  RECHARGE_PAGE_SIZES,
  STATUS_COLORS,
  formatMoney,
  rechargeListParams,
  remedyOptions,
} from '../model';

export default function RechargeRemedyPage() {
  const { t } = useTranslation('operatorRecharge');
  const [state, update] = useListState(RECHARGE_LIST_SPEC);
  const list = useRechargeOrders(rechargeListParams(state));
  const [open, setOpen] = useState<number>();
  const [remedy, setRemedy] = useState<RechargeOrderRow>();
  const locale = bcp47(currentLocale());
  const when = (ms: number) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms));

  const columns: TableColumnsType<RechargeOrderRow> = [
    {
      title: t('col.orderNo'),
      dataIndex: 'orderNo',
      key: 'orderNo',
      width: 190,
      render: (v: string, o) => (
        <Button type="link" style={{ padding: 0 }} onClick={() => setOpen(o.id)} data-testid="order-open">
          {v}
        </Button>
      ),
    },
    {
      title: t('col.status'),
      dataIndex: 'status',
      key: 'status',
      width: 110,
      render: (s: RechargeOrderRow['status']) => (
        <Tag color={STATUS_COLORS[s]} data-testid="order-status">
          {t(`status.${s}`)}
        </Tag>
      ),
    },
    { title: t('col.account'), dataIndex: 'accountUsr', key: 'account', width: 130 },
    {
      title: t('col.cards'),
      key: 'cards',
      width: 170,
      render: (_: unknown, o) => (
        <Space orientation="vertical" size={0}>
          {o.pns.map((pn) => (
            <Typography.Text key={pn} style={{ fontSize: 12 }}>
              {pn}
            </Typography.Text>
          ))}
          {o.items > o.pns.length && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('morePns', { n: o.items - o.pns.length })}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('col.package'),
      key: 'package',
      width: 140,
      render: (_: unknown, o) => t('packageMonths', { package: o.package, n: o.months }),
    },
    {
      title: t('col.amount'),
      key: 'amount',
      width: 120,
      align: 'right',
      render: (_: unknown, o) => <span data-testid="order-amount">{formatMoney(o.amount, o.currency, locale)}</span>,
    },
    {
      title: t('col.method'),
      key: 'method',
      width: 150,
      render: (_: unknown, o) => (
        <Space orientation="vertical" size={0}>
          <span>{o.method ? t(`method.${o.method}`) : '—'}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {o.area ? t(`area.${o.area}`) : ''}
          </Typography.Text>
        </Space>
      ),
    },
    { title: t('col.created'), dataIndex: 'createdAt', key: 'created', width: 140, render: (v: number) => when(v) },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 100,
      render: (_: unknown, o) => (
        <Button
          size="small"
          disabled={remedyOptions(o.status).length === 0}
          onClick={() => setRemedy(o)}
          data-testid="order-remedy"
        >
          {t('remedy.button')}
        </Button>
      ),
    },
  ];

  const range: [Dayjs | null, Dayjs | null] = [
    state.from ? dayjs(state.from) : null,
    state.to ? dayjs(state.to) : null,
  ];

  return (
    <Card title={t('title')} size="small" data-testid="recharge-page">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('hint')}
        </Typography.Paragraph>
        <Flex wrap gap={8}>
          <Input.Search
            allowClear
            defaultValue={state.search}
            placeholder={t('searchPlaceholder')}
            onSearch={(v) => update({ search: v.trim() })}
            style={{ width: 280, maxWidth: '100%' }}
            data-testid="recharge-search"
          />
          <Select
            value={state.status}
            onChange={(status) => update({ status })}
            options={[
              { value: '', label: t('allStatuses') },
              ...RECHARGE_ORDER_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) })),
            ]}
            style={{ width: 150, maxWidth: '100%' }}
            data-testid="recharge-status-filter"
          />
          <Select
            value={state.area}
            onChange={(area) => update({ area })}
            options={[
              { value: '', label: t('allAreas') },
              ...RECHARGE_AREAS.map((a) => ({ value: a, label: t(`area.${a}`) })),
            ]}
            style={{ width: 160, maxWidth: '100%' }}
            data-testid="recharge-area-filter"
          />
          <Select
            value={state.method}
            onChange={(method) => update({ method })}
            options={[
              { value: '', label: t('allMethods') },
              ...RECHARGE_PAYMENT_METHODS.map((m) => ({ value: m, label: t(`method.${m}`) })),
            ]}
            style={{ width: 170, maxWidth: '100%' }}
            data-testid="recharge-method-filter"
          />
          <DatePicker.RangePicker
            value={range}
            allowEmpty={[true, true]}
            onChange={(r) =>
              update({ from: r?.[0]?.format('YYYY-MM-DD') ?? '', to: r?.[1]?.format('YYYY-MM-DD') ?? '' })
            }
            placeholder={[t('from'), t('to')]}
            style={{ width: 260, maxWidth: '100%' }}
            data-testid="recharge-range"
          />
        </Flex>
        <PagedTable<RechargeOrderRow>
          query={list}
          errorTitle={t('loadFailed')}
          emptyText={t('empty')}
          rows={list.data?.orders}
          total={list.data?.total}
          rowKey="id"
          columns={columns}
          pager={{ state, update, pageSizes: RECHARGE_PAGE_SIZES, showTotal: (n) => t('total', { n }) }}
          onRow={(o) => ({ 'data-testid': 'order-row', 'data-id': o.id })}
          data-testid="recharge-table"
        />
      </Space>
      {open !== undefined && <OrderDrawer id={open} onClose={() => setOpen(undefined)} onRemedy={setRemedy} />}
      {remedy && <RemedyDialog order={remedy} onClose={() => setRemedy(undefined)} />}
    </Card>
  );
}
