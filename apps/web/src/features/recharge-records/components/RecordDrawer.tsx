/**
 * One of the caller's recharge orders: its facts and its cards as ordered (PN, CCID, load count,
 * card status when ordered), each card's renewal (credit_state) and current expiry, and the "Pay"
 * link of an unpaid order the caller placed.
 */
import { Alert, Button, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RechargeRecordItemRow } from '@sunwatch/protocol';
import { currentLocale } from '../../../i18n';
import { bcp47 } from '../../shared/charts/format';
import { OrderCards, OrderDrawerFrame, OrderFacts } from '../../shared/recharge/OrderDetail';
import { useRechargeRecord } from '../api/queries';

/** The facts the records show, in this order. */
const RECORD_FACTS = [
  'orderNo',
  'account',
  'package',
  'months',
  'amount',
  'discount',
  'method',
  'channel',
  'area',
  'vendor',
  'providerRef',
  'created',
  'paid',
  'finished',
] as const;

export function RecordDrawer({ id, payPath, onClose }: { id: number; payPath: string; onClose: () => void }) {
  const { t } = useTranslation('rechargeRecords');
  const q = useRechargeRecord(id);
  const locale = bcp47(currentLocale());
  const day = (ms: number | null) =>
    ms === null ? '—' : new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(ms));

  return (
    <OrderDrawerFrame t={t} query={q} testId="record-drawer" onClose={onClose}>
      {({ order: o, items }) => (
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
          <OrderFacts t={t} locale={locale} order={o} facts={RECORD_FACTS} labels={{ created: 'col.time' }} />
          <OrderCards<RechargeRecordItemRow>
            t={t}
            items={items}
            renewal="tag"
            ccidTitle={t('col.ccid')}
            more={[
              {
                title: t('col.expiry'),
                dataIndex: 'expireAt',
                key: 'expireAt',
                render: (v: number | null) => day(v),
              },
            ]}
          />
        </Flex>
      )}
    </OrderDrawerFrame>
  );
}
