/**
 * One recharge order: its facts, its cards as they were when ordered (PN, CCID, load count, card
 * status, renewal), and its remedy history (newest first), with the remedy button.
 */
import { Alert, Button, Empty, Flex, Space, Tag, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RechargeOrderRow } from '@sunwatch/protocol';
import { currentLocale } from '../../../i18n';
import { bcp47 } from '../../shared/charts/format';
import { OrderCards, OrderDrawerFrame, OrderFacts } from '../../shared/recharge/OrderDetail';
import { STATUS_COLORS, formatDateTime } from '../../shared/recharge/format';
import { useRechargeOrder } from '../api/queries';
import { remedyOptions } from '../model';

/** The facts the operator sees, in this order. */
const OPERATOR_FACTS = [
  'orderNo',
  'account',
  'vendor',
  'packageMonths',
  'amount',
  'discount',
  'method',
  'channel',
  'area',
  'providerRef',
  'created',
  'paid',
  'finished',
] as const;

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
  const q = useRechargeOrder(id);
  const locale = bcp47(currentLocale());

  return (
    <OrderDrawerFrame t={t} query={q} testId="recharge-drawer" onClose={onClose}>
      {(d) => {
        const o = d.order;
        return (
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
            <OrderFacts
              t={t}
              locale={locale}
              order={o}
              facts={OPERATOR_FACTS}
              labels={{ discount: 'detail.discount', channel: 'detail.channel' }}
            />
            <OrderCards t={t} items={d.items} renewal="text" />
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
                          {t('detail.by', { operator: r.operator, at: formatDateTime(r.at, locale) })}
                        </Typography.Text>
                      </Space>
                      <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{r.reason}</Typography.Text>
                    </Flex>
                  ),
                }))}
              />
            )}
          </Flex>
        );
      }}
    </OrderDrawerFrame>
  );
}
