/**
 * The recharge order result (spec §2 "recharge order result"; issue 15): where the provider's
 * checkout comes back (…/rechargePay/result?kind=&orderNo=). Polls queryPayResult until the order
 * is final and shows its state, amount, payment and each card's renewal (expiry before → after,
 * from when the credit counts under the 25th–5th and overdue-card delays).
 */
import { Button, Descriptions, Result, Spin, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { PayResultCard } from '@sunwatch/protocol';
import { apiErrorText } from '../../../app/notify';
import { usePayResult } from '../../shared/recharge/checkout/queries';
import { FINAL_STATES, formatDay, formatMoney, payPageOf, resultTone } from '../../shared/recharge/checkout/model';

export default function RechargeResultPage() {
  const { t, i18n } = useTranslation('rechargeCheckout');
  const locale = i18n.language;
  const [params] = useSearchParams();
  const location = useLocation();
  const kind = params.get('kind') === 'acceleration' ? 'acceleration' : 'recharge';
  const orderNo = params.get('orderNo') ?? '';
  const result = usePayResult(kind, orderNo);
  const r = result.data;
  const back = (
    <Link to={payPageOf(location.pathname)} key="back">
      <Button>{t('result.back')}</Button>
    </Link>
  );

  if (!orderNo) return <Result status="warning" title={t('result.noOrder')} extra={back} />;
  if (result.isError)
    return <Result status="error" title={t('result.loadFailed')} subTitle={apiErrorText(result.error)} extra={back} />;
  if (!r) return <Spin style={{ display: 'block', margin: '48px auto' }} />;

  const waiting = !FINAL_STATES.includes(r.status);
  const columns = [
    { title: t('cards.pn'), dataIndex: 'pn', key: 'pn' },
    { title: t('cards.ccid'), dataIndex: 'ccid', key: 'ccid' },
    {
      title: t('result.renewal'),
      dataIndex: 'creditState',
      key: 'creditState',
      render: (s: string) => <Tag color={s === 'applied' ? 'green' : 'default'}>{t(`credit.${s}`)}</Tag>,
    },
    {
      title: t('result.expiry'),
      key: 'expiry',
      render: (_: unknown, c: PayResultCard) =>
        c.expireAfter !== null ? (
          <span data-testid={`result-expiry-${c.pn}`}>
            {formatDay(c.expireBefore, locale) || '—'} → <b>{formatDay(c.expireAfter, locale)}</b>
          </span>
        ) : (
          formatDay(c.expireBefore, locale) || '—'
        ),
    },
    {
      title: t('result.effective'),
      dataIndex: 'effectiveAt',
      key: 'effectiveAt',
      render: (v: number | null) => formatDay(v, locale) || '—',
    },
  ];

  return (
    <div data-testid="recharge-result" data-status={r.status}>
      <Result
        status={resultTone(r.status)}
        icon={waiting ? <Spin size="large" /> : undefined}
        title={<span data-testid="result-status">{t(`result.status.${r.status}`, { defaultValue: r.status })}</span>}
        subTitle={t(`result.hint.${r.status}`, { defaultValue: '' })}
        extra={[back]}
      />
      <Descriptions size="small" bordered column={{ xs: 1, sm: 2 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('result.orderNo')}>
          <span data-testid="result-order">{r.orderNo}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('price.total')}>{formatMoney(r.amount, r.currency, locale)}</Descriptions.Item>
        <Descriptions.Item label={t('method')}>{r.method ? t(`methods.${r.method}`) : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('result.paidAt')}>{formatDay(r.paidAt, locale) || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('result.details')}>{r.description}</Descriptions.Item>
        {r.failReason && <Descriptions.Item label={t('result.reason')}>{r.failReason}</Descriptions.Item>}
      </Descriptions>
      {r.cards && (
        <Table<PayResultCard>
          size="small"
          rowKey="pn"
          columns={columns}
          dataSource={r.cards}
          pagination={false}
          scroll={{ x: 640 }}
          data-testid="result-cards"
        />
      )}
    </div>
  );
}
