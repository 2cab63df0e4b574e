/**
 * The recharge checkout of the selected flow cards (issue 15, spec §5 and §9): area, package,
 * months, payment method, the cards with the batch-rule verdict, the price with its discount;
 * "Pay" orders the recharge and sends the browser to the provider's hosted checkout page, which
 * comes back to the order-result page (rechargePay/result). docs/money/payments.md.
 */
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Descriptions, Form, Radio, Select, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  RECHARGE_AREAS,
  RECHARGE_MONTH_OPTIONS,
  RECHARGE_PAYMENT_METHODS,
  rechargePackagesOf,
  type RechargeArea,
  type RechargeCardRow,
  type RechargePaymentMethod,
} from '@sunwatch/protocol';
import { apiErrorText } from '../../../../app/notify';
import { DraggableModal } from '../../dialog/DraggableModal';
import { useCheckout, useRechargeQuote } from './queries';
import { formatDay, formatMoney, resultPathFor } from './model';

export interface CheckoutDialogProps {
  pns: string[];
  open: boolean;
  onClose(): void;
}

const STATUS_COLORS: Record<string, string> = {
  normal: 'green',
  warning: 'gold',
  overdue: 'orange',
  expired: 'red',
  unknown: 'default',
};

export function CheckoutDialog({ pns, open, onClose }: CheckoutDialogProps) {
  const { t, i18n } = useTranslation('rechargeCheckout');
  const locale = i18n.language;
  const [area, setArea] = useState<RechargeArea>('mainland');
  const [areaChosen, setAreaChosen] = useState(false);
  const [pkg, setPkg] = useState<string>(rechargePackagesOf('mainland')[0]!.id);
  const [months, setMonths] = useState(12);
  const [method, setMethod] = useState<RechargePaymentMethod>('card');
  const [error, setError] = useState<string>();
  const quote = useRechargeQuote({ pns, package: pkg, months, area }, open);
  const checkout = useCheckout();
  const packages = useMemo(() => rechargePackagesOf(area), [area]);

  const pickArea = (a: RechargeArea) => {
    setArea(a);
    setPkg(rechargePackagesOf(a)[0]!.id);
  };

  // The cards' own area, once known, unless the payer chose one.
  const cardArea = quote.data?.cards[0]?.area;
  useEffect(() => {
    if (areaChosen || !cardArea || cardArea === area) return;
    if ((RECHARGE_AREAS as readonly string[]).includes(cardArea)) pickArea(cardArea as RechargeArea);
  }, [cardArea, area, areaChosen]);

  useEffect(() => {
    if (!open) {
      setError(undefined);
      setAreaChosen(false);
    }
  }, [open]);

  const q = quote.data;
  const batchError = q?.batchError ?? '';
  const pay = async () => {
    setError(undefined);
    try {
      const { payUrl } = await checkout.mutateAsync({
        pns,
        package: pkg,
        months,
        area,
        method,
        returnPath: resultPathFor(window.location.pathname),
      });
      window.location.assign(payUrl);
    } catch (e) {
      setError(apiErrorText(e));
    }
  };

  const columns = [
    { title: t('cards.pn'), dataIndex: 'pn', key: 'pn' },
    { title: t('cards.ccid'), dataIndex: 'ccid', key: 'ccid' },
    { title: t('cards.load'), dataIndex: 'load', key: 'load' },
    {
      title: t('cards.status'),
      dataIndex: 'status',
      key: 'status',
      render: (s: string) => <Tag color={STATUS_COLORS[s]}>{t(`cardStatus.${s}`)}</Tag>,
    },
    {
      title: t('cards.expiry'),
      dataIndex: 'expireAt',
      key: 'expireAt',
      render: (v: number | null) => formatDay(v, locale) || '—',
    },
  ];

  return (
    <DraggableModal
      open={open}
      title={t('title', { n: pns.length })}
      onCancel={onClose}
      width={680}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
      footer={
        <Space wrap style={{ justifyContent: 'flex-end', width: '100%' }}>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button
            type="primary"
            onClick={() => void pay()}
            loading={checkout.isPending}
            disabled={!q || quote.isFetching || batchError !== ''}
            data-testid="checkout-pay"
          >
            {q ? t('pay', { amount: formatMoney(q.amountMinor, q.currency, locale) }) : t('payPlain')}
          </Button>
        </Space>
      }
    >
      <Form layout="vertical" data-testid="checkout-dialog">
        <Form.Item label={t('area')}>
          <Radio.Group
            value={area}
            onChange={(e) => {
              setAreaChosen(true);
              pickArea(e.target.value as RechargeArea);
            }}
            optionType="button"
            options={RECHARGE_AREAS.map((a) => ({ value: a, label: t(`areas.${a}`) }))}
            data-testid="checkout-area"
          />
        </Form.Item>
        <Space wrap size="middle" style={{ width: '100%' }} align="start">
          <Form.Item label={t('package')} style={{ minWidth: 240 }}>
            <Select
              value={pkg}
              onChange={setPkg}
              data-testid="checkout-package"
              options={packages.map((p) => ({
                value: p.id,
                label: t('packageOption', {
                  mb: p.dataMb,
                  price: formatMoney(p.monthMinor, p.currency, locale),
                }),
              }))}
            />
          </Form.Item>
          <Form.Item label={t('months')} style={{ minWidth: 180 }}>
            <Select
              value={months}
              onChange={setMonths}
              data-testid="checkout-months"
              options={RECHARGE_MONTH_OPTIONS.map((o) => ({
                value: o.months,
                label:
                  o.discountPct > 0
                    ? t('monthsDiscount', { n: o.months, pct: o.discountPct })
                    : t('monthsOption', { n: o.months }),
              }))}
            />
          </Form.Item>
        </Space>
        <Form.Item label={t('method')} extra={method === 'paypal' ? t('paypalRmb') : undefined}>
          <Radio.Group
            value={method}
            onChange={(e) => setMethod(e.target.value as RechargePaymentMethod)}
            options={RECHARGE_PAYMENT_METHODS.map((m) => ({ value: m, label: t(`methods.${m}`) }))}
            data-testid="checkout-method"
          />
        </Form.Item>
        <Table<RechargeCardRow>
          size="small"
          rowKey="pn"
          columns={columns}
          dataSource={q?.cards ?? []}
          loading={quote.isLoading}
          pagination={false}
          scroll={{ x: 520, y: 200 }}
          data-testid="checkout-cards"
        />
        {batchError !== '' && (
          <Alert
            type="error"
            showIcon
            style={{ marginTop: 12 }}
            message={t(`batch.${batchError}`, { pn: q?.batchPn ?? '' })}
            data-testid="checkout-batch-error"
          />
        )}
        {quote.isError && <Alert type="error" showIcon style={{ marginTop: 12 }} message={apiErrorText(quote.error)} />}
        {q && (
          <Descriptions size="small" column={1} bordered style={{ marginTop: 12 }} data-testid="checkout-price">
            <Descriptions.Item label={t('price.list', { cards: q.cards.length, months })}>
              {formatMoney(q.listMinor, q.currency, locale)}
            </Descriptions.Item>
            <Descriptions.Item label={t('price.discount', { pct: q.discountPct })}>
              {q.discountMinor > 0 ? `− ${formatMoney(q.discountMinor, q.currency, locale)}` : '—'}
            </Descriptions.Item>
            <Descriptions.Item label={t('price.total')}>
              <Typography.Text strong data-testid="checkout-total">
                {formatMoney(q.amountMinor, q.currency, locale)}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        )}
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('creditNote')}
        </Typography.Paragraph>
        {error && (
          <Alert type="error" showIcon style={{ marginTop: 12 }} message={error} data-testid="checkout-error" />
        )}
      </Form>
    </DraggableModal>
  );
}
