/**
 * The recharge order columns both order lists show (the operator's rechargeRemedy and the
 * rechargeRecord of owners, distributors and manufacturers): order number (opens the drawer),
 * state, the cards' PNs, amount, account, creation time. Each page puts them in its own order
 * and width between its own columns; the texts are the page's (its namespace has the same keys:
 * `col.*`, `status.*`, `morePns`), the test ids carry the page's prefix (`order-open`, `record-open`).
 */
import { Button, Space, Tag, Typography, type TableColumnType } from 'antd';
import type { TFunction } from 'i18next';
import type { RechargeOrderRow } from '@sunwatch/protocol';
import { STATUS_COLORS, formatDateTime, formatMoney } from './format';

/** What both lists' rows have: the operator's row (the records' row adds its cards' facts). */
export type RechargeOrderLike = Omit<RechargeOrderRow, 'remedies'>;

export interface OrderColumnsContext {
  /** The page's texts. */
  t: TFunction;
  /** BCP 47 locale for money and times. */
  locale: string;
  /** The page's test id prefix: `<prefix>-open`, `<prefix>-status`, `<prefix>-amount`. */
  testId: string;
  /** Opens the order's drawer. */
  onOpen: (id: number) => void;
}

/** The shared columns, each for the width the page gives it. */
export function rechargeOrderColumns<R extends RechargeOrderLike>({ t, locale, testId, onOpen }: OrderColumnsContext) {
  return {
    orderNo: (width: number): TableColumnType<R> => ({
      title: t('col.orderNo'),
      dataIndex: 'orderNo',
      key: 'orderNo',
      width,
      render: (v: string, o) => (
        <Button type="link" style={{ padding: 0 }} onClick={() => onOpen(o.id)} data-testid={`${testId}-open`}>
          {v}
        </Button>
      ),
    }),
    status: (width: number): TableColumnType<R> => ({
      title: t('col.status'),
      dataIndex: 'status',
      key: 'status',
      width,
      render: (s: R['status']) => (
        <Tag color={STATUS_COLORS[s]} data-testid={`${testId}-status`}>
          {t(`status.${s}`)}
        </Tag>
      ),
    }),
    account: (width: number): TableColumnType<R> => ({
      title: t('col.account'),
      dataIndex: 'accountUsr',
      key: 'account',
      width,
    }),
    cards: (width: number): TableColumnType<R> => ({
      title: t('col.cards'),
      key: 'cards',
      width,
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
    }),
    amount: (width: number): TableColumnType<R> => ({
      title: t('col.amount'),
      key: 'amount',
      width,
      align: 'right',
      render: (_: unknown, o) => (
        <span data-testid={`${testId}-amount`}>{formatMoney(o.amount, o.currency, locale)}</span>
      ),
    }),
    /** `title`: the page's text key of the column (`col.created`, `col.time`). */
    created: (width: number, title: string): TableColumnType<R> => ({
      title: t(title),
      dataIndex: 'createdAt',
      key: 'created',
      width,
      render: (v: number) => formatDateTime(v, locale),
    }),
  };
}
