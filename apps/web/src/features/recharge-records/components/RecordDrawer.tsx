/**
 * One of the caller's recharge orders: its facts and its cards as ordered (PN, CCID, load count,
 * card status when ordered), each card's renewal (credit_state) and current expiry, and the "Pay"
 * link of an unpaid order the caller placed.
 */
import { Alert, Button, Descriptions, Drawer, Flex, Skeleton, Space, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RechargeRecordItemRow } from '@sunwatch/protocol';
import { apiErrorText } from '../../../app/notify';
import { useIsPhone } from '../../../components/responsive';
import { currentLocale } from '../../../i18n';
import { bcp47 } from '../../shared/charts/format';
import { CARD_COLORS, STATUS_COLORS, formatMoney } from '../../shared/recharge/format';
import { useRechargeRecord } from '../api/queries';

const CREDIT_COLORS = { none: 'default', pending: 'processing', applied: 'success' } as const;

export function RecordDrawer({ id, payPath, onClose }: { id: number; payPath: string; onClose: () => void }) {
  const { t } = useTranslation('rechargeRecords');
  const phone = useIsPhone();
  const q = useRechargeRecord(id);
  const locale = bcp47(currentLocale());
  const when = (ms: number | null) =>
    ms === null
      ? '—'
      : new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms));
  const day = (ms: number | null) =>
    ms === null ? '—' : new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(ms));
  const d = q.data;
  const o = d?.order;

  const itemCols: TableColumnsType<RechargeRecordItemRow> = [
    { title: 'PN', dataIndex: 'pn', key: 'pn', render: (v: string) => <Typography.Text copyable>{v}</Typography.Text> },
    {
      title: t('col.ccid'),
      dataIndex: 'ccid',
      key: 'ccid',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    { title: t('col.load'), dataIndex: 'load', key: 'load', width: 80 },
    {
      title: t('col.cardStatus'),
      dataIndex: 'cardStatus',
      key: 'cardStatus',
      render: (v: RechargeRecordItemRow['cardStatus']) => <Tag color={CARD_COLORS[v]}>{t(`card.${v}`)}</Tag>,
    },
    {
      title: t('col.renewal'),
      dataIndex: 'creditState',
      key: 'creditState',
      render: (v: RechargeRecordItemRow['creditState']) =>
        v === 'none' ? (
          '—'
        ) : (
          <Tag color={CREDIT_COLORS[v]} data-testid="item-credit">
            {t(`credit.${v}`)}
          </Tag>
        ),
    },
    { title: t('col.expiry'), dataIndex: 'expireAt', key: 'expireAt', render: (v: number | null) => day(v) },
  ];

  return (
    <Drawer
      open
      onClose={onClose}
      size={phone ? '100%' : 760}
      destroyOnHidden
      title={
        <Space wrap>
          {t('detail.title', { orderNo: o?.orderNo ?? '' })}
          {o && <Tag color={STATUS_COLORS[o.status]}>{t(`status.${o.status}`)}</Tag>}
        </Space>
      }
      data-testid="record-drawer"
    >
      {q.isError ? (
        <Alert type="error" showIcon title={t('loadFailed')} description={apiErrorText(q.error)} />
      ) : !d || !o ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <Flex vertical gap={16}>
          {o.status === 'unpaid' && o.own && (
            <Alert
              type="warning"
              showIcon
              title={t('payHint')}
              action={
                <Link to={`${payPath}?order=${encodeURIComponent(o.orderNo)}`} data-testid="drawer-pay">
                  <Button type="primary" size="small">
                    {t('pay')}
                  </Button>
                </Link>
              }
            />
          )}
          <Descriptions size="small" bordered column={phone ? 1 : 2}>
            <Descriptions.Item label={t('col.orderNo')}>
              <Typography.Text copyable>{o.orderNo}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('col.account')}>{o.accountUsr}</Descriptions.Item>
            <Descriptions.Item label={t('col.package')}>{o.package || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('col.months')}>{o.months}</Descriptions.Item>
            <Descriptions.Item label={t('col.amount')}>
              <span data-testid="drawer-amount">{formatMoney(o.amount, o.currency, locale)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('col.discount')}>
              {o.discount > 0 ? formatMoney(o.discount, o.currency, locale) : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.method')}>{o.method ? t(`method.${o.method}`) : '—'}</Descriptions.Item>
            <Descriptions.Item label={t('col.channel')}>{o.channel || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('col.area')}>{o.area ? t(`area.${o.area}`) : '—'}</Descriptions.Item>
            <Descriptions.Item label={t('detail.vendor')}>{o.vendorUsr || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('detail.providerRef')}>{o.providerRef || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('col.time')}>{when(o.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('detail.paid')}>{when(o.paidAt)}</Descriptions.Item>
            <Descriptions.Item label={t('detail.finished')}>{when(o.finishedAt)}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t('detail.cards', { n: d.items.length })}
          </Typography.Title>
          <Table<RechargeRecordItemRow>
            size="small"
            rowKey="id"
            dataSource={d.items}
            columns={itemCols}
            scroll={{ x: 'max-content' }}
            pagination={d.items.length > 10 ? { pageSize: 10, size: 'small' } : false}
            onRow={(i) => ({ 'data-testid': 'drawer-item', 'data-pn': i.pn }) as React.HTMLAttributes<HTMLElement>}
            data-testid="drawer-items"
          />
        </Flex>
      )}
    </Drawer>
  );
}
