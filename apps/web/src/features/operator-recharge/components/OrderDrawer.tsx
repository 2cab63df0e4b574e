/**
 * One recharge order: its facts, its cards as they were when ordered (PN, CCID, load count, card
 * status, renewal), and its remedy history (newest first), with the remedy button.
 */
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Flex,
  Skeleton,
  Space,
  Table,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RechargeOrderItemRow, RechargeOrderRow } from '@sunwatch/protocol';
import { apiErrorText } from '../../../app/notify';
import { useIsPhone } from '../../../components/responsive';
import { currentLocale } from '../../../i18n';
import { bcp47 } from '../../shared/charts/format';
import { useRechargeOrder } from '../api/queries';
import { CARD_COLORS } from '../../shared/recharge/format';
import { STATUS_COLORS, formatMoney, remedyOptions } from '../model';

export function OrderDrawer({
  id,
  onClose,
  onRemedy,
}: {
  id: number;
  onClose: () => void;
  onRemedy: (order: RechargeOrderRow) => void;
}) {
  const { t } = useTranslation('operatorRecharge');
  const phone = useIsPhone();
  const q = useRechargeOrder(id);
  const locale = bcp47(currentLocale());
  const when = (ms: number | null) =>
    ms === null
      ? '—'
      : new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms));
  const d = q.data;
  const o = d?.order;

  const itemCols: TableColumnsType<RechargeOrderItemRow> = [
    { title: 'PN', dataIndex: 'pn', key: 'pn', render: (v: string) => <Typography.Text copyable>{v}</Typography.Text> },
    {
      title: 'CCID',
      dataIndex: 'ccid',
      key: 'ccid',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    { title: t('col.load'), dataIndex: 'load', key: 'load', width: 80 },
    {
      title: t('col.cardStatus'),
      dataIndex: 'cardStatus',
      key: 'cardStatus',
      render: (v: RechargeOrderItemRow['cardStatus']) => <Tag color={CARD_COLORS[v]}>{t(`card.${v}`)}</Tag>,
    },
    {
      title: t('col.renewal'),
      dataIndex: 'creditState',
      key: 'creditState',
      render: (v: RechargeOrderItemRow['creditState']) => t(`credit.${v}`),
    },
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
      data-testid="recharge-drawer"
    >
      {q.isError ? (
        <Alert type="error" showIcon title={t('loadFailed')} description={apiErrorText(q.error)} />
      ) : !d || !o ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <Flex vertical gap={16}>
          <Flex justify="flex-end">
            <Button
              type="primary"
              disabled={remedyOptions(o.status).length === 0}
              onClick={() => onRemedy(o)}
              data-testid="drawer-remedy"
            >
              {t('remedy.button')}
            </Button>
          </Flex>
          {remedyOptions(o.status).length === 0 && (
            <Alert type="info" showIcon title={t('remedy.none', { status: t(`status.${o.status}`) })} />
          )}
          <Descriptions size="small" bordered column={phone ? 1 : 2}>
            <Descriptions.Item label={t('col.orderNo')}>
              <Typography.Text copyable>{o.orderNo}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('col.account')}>{o.accountUsr}</Descriptions.Item>
            <Descriptions.Item label={t('detail.vendor')}>{o.vendorUsr || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('col.package')}>
              {t('packageMonths', { package: o.package, n: o.months })}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.amount')}>
              <span data-testid="drawer-amount">{formatMoney(o.amount, o.currency, locale)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('detail.discount')}>
              {o.discount > 0 ? formatMoney(o.discount, o.currency, locale) : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('col.method')}>{o.method ? t(`method.${o.method}`) : '—'}</Descriptions.Item>
            <Descriptions.Item label={t('detail.channel')}>{o.channel || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('col.area')}>{o.area ? t(`area.${o.area}`) : '—'}</Descriptions.Item>
            <Descriptions.Item label={t('detail.providerRef')}>{o.providerRef || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('col.created')}>{when(o.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('detail.paid')}>{when(o.paidAt)}</Descriptions.Item>
            <Descriptions.Item label={t('detail.finished')}>{when(o.finishedAt)}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t('detail.cards', { n: d.items.length })}
          </Typography.Title>
          <Table<RechargeOrderItemRow>
            size="small"
            rowKey="id"
            dataSource={d.items}
            columns={itemCols}
            scroll={{ x: 'max-content' }}
            pagination={d.items.length > 10 ? { pageSize: 10, size: 'small' } : false}
            data-testid="drawer-items"
          />
          <Typography.Title level={5} style={{ margin: 0 }}>
            {t('detail.history')}
          </Typography.Title>
          {d.remedies.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('detail.noRemedies')} />
          ) : (
            <Timeline
              data-testid="drawer-remedies"
              items={d.remedies.map((r) => ({
                key: r.id,
                content: (
                  <Flex vertical gap={2} data-testid="drawer-remedy-row">
                    <Space wrap size={4}>
                      <Tag color={STATUS_COLORS[r.from]}>{t(`status.${r.from}`)}</Tag>→
                      <Tag color={STATUS_COLORS[r.to]}>{t(`status.${r.to}`)}</Tag>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {t('detail.by', { operator: r.operator, at: when(r.at) })}
                      </Typography.Text>
                    </Space>
                    <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{r.reason}</Typography.Text>
                  </Flex>
                ),
              }))}
            />
          )}
        </Flex>
      )}
    </Drawer>
  );
}
