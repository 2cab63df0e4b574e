/**
 * setting/collectionFrequencyRecord (issue 15; adminNew and generalNew): the acceleration orders of
 * the dataloggers the account manages (an owner: its own) and the collection-interval changes they
 * made, searched, filtered and paged on the server, state in the address bar (list kit). "Buy
 * acceleration" opens the purchase page (`buy`); coming back from the checkout (`?order=`) shows the
 * order's result until its interval change is applied. docs/money/acceleration.md.
 */
import { Alert, Button, Card, Segmented, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  ACCELERATION_CHANGE_STATUSES,
  ACCELERATION_ORDER_STATUSES,
  ACCELERATION_TYPES,
  ROLE,
  type AccelerationChangeRow,
  type AccelerationOrderRow,
} from '@sunwatch/protocol';
import { useListState } from '../../../components/list';
import { EnumSelect, FilterRow, ListSearch } from '../../../components/list/FilterRow';
import { PagedTable } from '../../../components/list/PagedTable';
import { currentLocale } from '../../../i18n';
import { useSession } from '../../../app/use-session';
import { bcp47 } from '../../shared/charts/format';
import { useAccelerationChanges, useAccelerationOrder, useAccelerationOrders } from '../api/queries';
import {
  CHANGE_COLORS,
  ORDER_COLORS,
  RECORD_LIST_SPEC,
  RECORD_PAGE_SIZES,
  changeListParams,
  formatMoney,
  orderListParams,
} from '../model';

/** Roles that may buy (the catalogue's createAccelerationOrder roles); group accounts only read. */
const BUYER_ROLES: readonly number[] = [ROLE.OWNER, ROLE.MANUFACTURER, ROLE.DISTRIBUTOR, ROLE.OPERATOR];

function OrderResult({ orderNo, onClose }: { orderNo: string; onClose: () => void }) {
  const { t } = useTranslation('acceleration');
  const q = useAccelerationOrder(orderNo);
  const o = q.data;
  if (q.isError)
    return <Alert type="error" showIcon title={t('result.notFound', { orderNo })} closable onClose={onClose} />;
  if (!o) return null;
  const type =
    o.status !== 'paid' ? (o.status === 'unpaid' ? 'info' : 'error') : o.change === 'applied' ? 'success' : 'info';
  const text =
    o.status !== 'paid'
      ? t(`result.order.${o.status}`)
      : t(`result.change.${o.change || 'pending'}`, { pn: o.pn, from: o.fromInterval, to: o.interval });
  return (
    <Alert
      type={type}
      showIcon
      closable
      onClose={onClose}
      title={t('result.title', { orderNo: o.orderNo })}
      description={text}
      data-testid="accel-result"
      data-status={o.status}
      data-change={o.change}
    />
  );
}

export default function CollectionFrequencyRecordPage() {
  const { t } = useTranslation('acceleration');
  const navigate = useNavigate();
  const session = useSession();
  const [state, update] = useListState(RECORD_LIST_SPEC, { keep: ['order'] });
  const [params, setParams] = useSearchParams();
  const resultOrder = params.get('order') ?? undefined;
  const orders = useAccelerationOrders(orderListParams(state), state.view === 'orders');
  const changes = useAccelerationChanges(changeListParams(state), state.view === 'changes');
  const locale = bcp47(currentLocale());
  const when = (ms: number | null) =>
    ms === null
      ? '—'
      : new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms));
  const secs = (n: number) => t('seconds', { n });
  const pager = { state, update, pageSizes: RECORD_PAGE_SIZES, showTotal: (n: number) => t('total', { n }) };

  const orderColumns: TableColumnsType<AccelerationOrderRow> = [
    { title: t('col.orderNo'), dataIndex: 'orderNo', key: 'orderNo', width: 200 },
    {
      title: t('col.datalogger'),
      key: 'pn',
      width: 170,
      render: (_: unknown, o) => (
        <Space orientation="vertical" size={0}>
          <span>{o.pn}</span>
          {o.alias && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {o.alias}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('col.package'),
      key: 'package',
      width: 190,
      render: (_: unknown, o) => (
        <Space orientation="vertical" size={0}>
          <span>{t(`type.${o.type}`)}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('intervalChange', { from: o.fromInterval, to: o.interval })}
            {o.type === 'history' ? ` · ${t('storageMonths', { count: o.storageMonths })}` : ''}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('col.price'),
      key: 'price',
      width: 120,
      align: 'right',
      render: (_: unknown, o) => <span data-testid="accel-amount">{formatMoney(o.amount, o.currency, locale)}</span>,
    },
    {
      title: t('col.method'),
      key: 'method',
      width: 120,
      render: (_: unknown, o) => (o.method ? t(`method.${o.method}`) : '—'),
    },
    {
      title: t('col.status'),
      key: 'status',
      width: 150,
      render: (_: unknown, o) => (
        <Space orientation="vertical" size={2}>
          <Tag color={ORDER_COLORS[o.status]} data-testid="accel-status">
            {t(`status.${o.status}`)}
          </Tag>
          {o.change && (
            <Tag color={CHANGE_COLORS[o.change]} data-testid="accel-change">
              {t(`change.${o.change}`)}
            </Tag>
          )}
        </Space>
      ),
    },
    { title: t('col.account'), dataIndex: 'accountUsr', key: 'account', width: 120 },
    { title: t('col.created'), key: 'created', width: 140, render: (_: unknown, o) => when(o.createdAt) },
    { title: t('col.paid'), key: 'paid', width: 140, render: (_: unknown, o) => when(o.paidAt) },
  ];

  const changeColumns: TableColumnsType<AccelerationChangeRow> = [
    { title: t('col.datalogger'), dataIndex: 'pn', key: 'pn', width: 160 },
    {
      title: t('col.interval'),
      key: 'interval',
      width: 150,
      render: (_: unknown, c) => (
        <span data-testid="accel-interval">
          {secs(c.fromInterval)} → {secs(c.toInterval)}
        </span>
      ),
    },
    {
      title: t('col.status'),
      key: 'status',
      width: 120,
      render: (_: unknown, c) => (
        <Tag color={CHANGE_COLORS[c.status]} data-testid="accel-change">
          {t(`change.${c.status}`)}
        </Tag>
      ),
    },
    {
      title: t('col.ack'),
      key: 'ack',
      width: 200,
      render: (_: unknown, c) =>
        c.status === 'applied' ? (
          t('ackAt', { when: when(c.appliedAt), interval: c.ackInterval ?? c.toInterval })
        ) : (
          <Typography.Text type="secondary">
            {c.lastError === 'offline'
              ? t('waitOnline')
              : c.lastError === 'timeout'
                ? t('waitAck', { n: c.attempts })
                : c.lastError || t('waitSend')}
          </Typography.Text>
        ),
    },
    { title: t('col.orderNo'), dataIndex: 'orderNo', key: 'orderNo', width: 200 },
    { title: t('col.created'), key: 'created', width: 140, render: (_: unknown, c) => when(c.createdAt) },
  ];

  const closeResult = () => {
    const next = new URLSearchParams(params);
    next.delete('order');
    setParams(next, { replace: true });
  };

  return (
    <Card
      title={t('title')}
      size="small"
      data-testid="accel-record-page"
      extra={
        session && BUYER_ROLES.includes(session.role) ? (
          <Button type="primary" onClick={() => void navigate('buy')} data-testid="accel-buy">
            {t('buyButton')}
          </Button>
        ) : undefined
      }
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        {resultOrder && <OrderResult orderNo={resultOrder} onClose={closeResult} />}
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('hint')}
        </Typography.Paragraph>
        <FilterRow>
          <Segmented<string>
            value={state.view}
            onChange={(v) => update({ view: v as 'orders' | 'changes' })}
            options={[
              { value: 'orders', label: t('view.orders') },
              { value: 'changes', label: t('view.changes') },
            ]}
            data-testid="accel-view"
          />
          <ListSearch
            key={state.view}
            value={state.search}
            onSearch={(search) => update({ search })}
            placeholder={t('searchPlaceholder')}
            width={260}
            testId="accel-search"
          />
          {state.view === 'orders' ? (
            <>
              <EnumSelect
                value={state.status}
                values={ACCELERATION_ORDER_STATUSES}
                onChange={(status) => update({ status })}
                allLabel={t('allStatuses')}
                label={(s) => t(`status.${s}`)}
                width={150}
                testId="accel-status-filter"
              />
              <EnumSelect
                value={state.type}
                values={ACCELERATION_TYPES}
                onChange={(type) => update({ type })}
                allLabel={t('allTypes')}
                label={(s) => t(`type.${s}`)}
                width={190}
                testId="accel-type-filter"
              />
            </>
          ) : (
            <EnumSelect
              value={state.change}
              values={ACCELERATION_CHANGE_STATUSES}
              onChange={(change) => update({ change })}
              allLabel={t('allStatuses')}
              label={(s) => t(`change.${s}`)}
              width={150}
              testId="accel-change-filter"
            />
          )}
        </FilterRow>
        {state.view === 'orders' ? (
          <PagedTable<AccelerationOrderRow>
            query={orders}
            errorTitle={t('loadFailed')}
            emptyText={t('emptyOrders')}
            rows={orders.data?.orders}
            total={orders.data?.total}
            rowKey="id"
            columns={orderColumns}
            pager={pager}
            onRow={(o) => ({ 'data-testid': 'accel-order-row', 'data-id': o.orderNo })}
            data-testid="accel-orders"
          />
        ) : (
          <PagedTable<AccelerationChangeRow>
            query={changes}
            errorTitle={t('loadFailed')}
            emptyText={t('emptyChanges')}
            rows={changes.data?.rows}
            total={changes.data?.total}
            rowKey="id"
            columns={changeColumns}
            pager={pager}
            onRow={(c) => ({ 'data-testid': 'accel-change-row', 'data-id': c.orderNo })}
            data-testid="accel-changes"
          />
        )}
      </Space>
    </Card>
  );
}
