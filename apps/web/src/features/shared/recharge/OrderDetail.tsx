/**
 * One recharge order in a drawer, as both order lists open it (the operator's rechargeRemedy and
 * the rechargeRecord of owners, distributors and manufacturers): the frame (title with the state,
 * the error or the skeleton while loading), the order's facts and its cards as ordered. Each page
 * adds its own parts (remedy button and history; the "Pay" link) and picks which facts it shows in
 * which order. The texts are the page's (its namespace has the same keys: `col.*`, `detail.*`,
 * `status.*`, `card.*`, `credit.*`).
 */
import type { ReactNode } from 'react';
import { Alert, Descriptions, Drawer, Skeleton, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import type { TFunction } from 'i18next';
import type { RechargeOrderItemRow } from '@sunwatch/protocol';
import { apiErrorText } from '../../../app/notify';
import { useIsPhone } from '../../../components/responsive';
import { CARD_COLORS, CREDIT_COLORS, STATUS_COLORS, formatDateTime, formatMoney } from './format';
import type { RechargeOrderLike } from './order-columns';

/** The drawer: its title names the order and its state; the content shows once the order is loaded. */
export function OrderDrawerFrame<D extends { order: RechargeOrderLike }>({
  t,
  query,
  testId,
  onClose,
  children,
}: {
  t: TFunction;
  /** The order's query (`data`: the order with its parts). */
  query: { isError: boolean; error: unknown; data: D | undefined };
  testId: string;
  onClose: () => void;
  /** The content, called once the order is loaded. */
  children: (data: D) => ReactNode;
}) {
  const phone = useIsPhone();
  const d = query.data;
  const order = d?.order;
  return (
    <Drawer
      open
      onClose={onClose}
      size={phone ? '100%' : 760}
      destroyOnHidden
      title={
        <Space wrap>
          {t('detail.title', { orderNo: order?.orderNo ?? '' })}
          {order && <Tag color={STATUS_COLORS[order.status]}>{t(`status.${order.status}`)}</Tag>}
        </Space>
      }
      data-testid={testId}
    >
      {query.isError ? (
        <Alert type="error" showIcon title={t('loadFailed')} description={apiErrorText(query.error)} />
      ) : !d || !order ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        children(d)
      )}
    </Drawer>
  );
}

/** An order's facts; `packageMonths`: the package with its months in one text (`packageMonths`). */
export type OrderFact =
  | 'orderNo'
  | 'account'
  | 'vendor'
  | 'package'
  | 'packageMonths'
  | 'months'
  | 'amount'
  | 'discount'
  | 'method'
  | 'channel'
  | 'area'
  | 'providerRef'
  | 'created'
  | 'paid'
  | 'finished';

/** The text key of each fact's label (a page may name others, `labels`). */
const FACT_LABELS: Record<OrderFact, string> = {
  orderNo: 'col.orderNo',
  account: 'col.account',
  vendor: 'detail.vendor',
  package: 'col.package',
  packageMonths: 'col.package',
  months: 'col.months',
  amount: 'col.amount',
  discount: 'col.discount',
  method: 'col.method',
  channel: 'col.channel',
  area: 'col.area',
  providerRef: 'detail.providerRef',
  created: 'col.created',
  paid: 'detail.paid',
  finished: 'detail.finished',
};

/** The facts of an order, in the order of `facts`; two columns, one on a phone. */
export function OrderFacts({
  t,
  locale,
  order: o,
  facts,
  labels = {},
}: {
  t: TFunction;
  locale: string;
  order: RechargeOrderLike;
  facts: readonly OrderFact[];
  /** Label text keys other than the default ones. */
  labels?: Partial<Record<OrderFact, string>>;
}) {
  const phone = useIsPhone();
  const value = (f: OrderFact): ReactNode => {
    switch (f) {
      case 'orderNo':
        return <Typography.Text copyable>{o.orderNo}</Typography.Text>;
      case 'account':
        return o.accountUsr;
      case 'vendor':
        return o.vendorUsr || '—';
      case 'package':
        return o.package || '—';
      case 'packageMonths':
        return t('packageMonths', { package: o.package, n: o.months });
      case 'months':
        return o.months;
      case 'amount':
        return <span data-testid="drawer-amount">{formatMoney(o.amount, o.currency, locale)}</span>;
      case 'discount':
        return o.discount > 0 ? formatMoney(o.discount, o.currency, locale) : '—';
      case 'method':
        return o.method ? t(`method.${o.method}`) : '—';
      case 'channel':
        return o.channel || '—';
      case 'area':
        return o.area ? t(`area.${o.area}`) : '—';
      case 'providerRef':
        return o.providerRef || '—';
      case 'created':
        return formatDateTime(o.createdAt, locale);
      case 'paid':
        return formatDateTime(o.paidAt, locale);
      case 'finished':
        return formatDateTime(o.finishedAt, locale);
    }
  };
  return (
    <Descriptions
      size="small"
      bordered
      column={phone ? 1 : 2}
      items={facts.map((f) => ({ key: f, label: t(labels[f] ?? FACT_LABELS[f]), children: value(f) }))}
    />
  );
}

/**
 * The order's cards as ordered: PN, CCID, load count, card status then, renewal (`text`: its
 * name; `tag`: a coloured tag, none for no renewal), then the page's `more` columns.
 */
export function OrderCards<I extends RechargeOrderItemRow>({
  t,
  items,
  renewal,
  ccidTitle = 'CCID',
  more = [],
}: {
  t: TFunction;
  items: readonly I[];
  renewal: 'text' | 'tag';
  ccidTitle?: string;
  more?: TableColumnsType<I>;
}) {
  const columns: TableColumnsType<I> = [
    { title: 'PN', dataIndex: 'pn', key: 'pn', render: (v: string) => <Typography.Text copyable>{v}</Typography.Text> },
    {
      title: ccidTitle,
      dataIndex: 'ccid',
      key: 'ccid',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    { title: t('col.load'), dataIndex: 'load', key: 'load', width: 80 },
    {
      title: t('col.cardStatus'),
      dataIndex: 'cardStatus',
      key: 'cardStatus',
      render: (v: I['cardStatus']) => <Tag color={CARD_COLORS[v]}>{t(`card.${v}`)}</Tag>,
    },
    {
      title: t('col.renewal'),
      dataIndex: 'creditState',
      key: 'creditState',
      render: (v: I['creditState']) =>
        renewal === 'text' ? (
          t(`credit.${v}`)
        ) : v === 'none' ? (
          '—'
        ) : (
          <Tag color={CREDIT_COLORS[v]} data-testid="item-credit">
            {t(`credit.${v}`)}
          </Tag>
        ),
    },
    ...more,
  ];
  return (
    <>
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('detail.cards', { n: items.length })}
      </Typography.Title>
      <Table<I>
        size="small"
        rowKey="id"
        dataSource={items}
        columns={columns}
        scroll={{ x: 'max-content' }}
        pagination={items.length > 10 ? { pageSize: 10, size: 'small' } : false}
        onRow={(i) => ({ 'data-testid': 'drawer-item', 'data-pn': i.pn }) as React.HTMLAttributes<HTMLElement>}
        data-testid="drawer-items"
      />
    </>
  );
}
