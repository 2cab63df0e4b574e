/**
 * setting/collectionFrequencyRecord/buy (issue 15, spec §2 "acceleration purchase page with
 * terms"): pick one of the Wi-Fi dataloggers the account may accelerate, the data type (energy flow
 * or detail/history), the interval (only faster than today's) and, for history data, the storage
 * time; the price is the server's live quote (protocol accelerationPrice). The terms (not
 * refundable or changeable, Wi-Fi only, no validity limit) must be accepted in their dialog before
 * the order is created; then the provider's checkout opens (payOrder) and comes back to the record
 * page with the order's result. docs/money/acceleration.md.
 */
import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Flex,
  Form,
  Radio,
  Select,
  Space,
  Spin,
  Statistic,
  Typography,
} from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  ACCELERATION_STORAGE_MONTHS,
  ACCELERATION_TYPES,
  RECHARGE_PAYMENT_METHODS,
  type AccelerationType,
  type RechargePaymentMethod,
} from '@sunwatch/protocol';
import { apiErrorText } from '../../../app/notify';
import { currentLocale } from '../../../i18n';
import { bcp47 } from '../../shared/charts/format';
import { useAccelerationCandidates, useAccelerationQuote, useBuyAcceleration } from '../api/queries';
import { TermsDialog } from '../components/TermsDialog';
import { formatMoney, offeredIntervals, quoteParams } from '../model';

/** Leaves the app for the provider's hosted checkout (a seam for tests). */
export const checkout = { open: (url: string) => window.location.assign(url) };

export default function AccelerationBuyPage() {
  const { t } = useTranslation('acceleration');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const locale = bcp47(currentLocale());
  const [search, setSearch] = useState('');
  const [pn, setPn] = useState<string>();
  const [type, setType] = useState<AccelerationType>('flow');
  const [interval, setInterval] = useState<number>();
  const [storage, setStorage] = useState<number>(ACCELERATION_STORAGE_MONTHS[0]);
  const [method, setMethod] = useState<RechargePaymentMethod>('card');
  const [accepted, setAccepted] = useState(false);
  const [termsOpen, setTermsOpen] = useState(false);

  const candidates = useAccelerationCandidates(search);
  const rows = candidates.data?.rows ?? [];
  const [picked, setPicked] = useState<(typeof rows)[number]>();
  const offered = offeredIntervals(picked?.collectInterval);
  const params = quoteParams({ pn, type, interval, storage });
  const quote = useAccelerationQuote(params);
  const buy = useBuyAcceleration();

  const pick = (value: string) => {
    const row = rows.find((r) => r.pn === value);
    setPn(value);
    setPicked(row);
    const faster = offeredIntervals(row?.collectInterval);
    setInterval(faster.includes(interval ?? -1) ? interval : faster[0]);
  };

  const submit = () => {
    if (!params || !accepted) return;
    buy.mutate(
      {
        order: { ...params, method, termsAccepted: true },
        method,
        buyPath: pathname,
      },
      { onSuccess: ({ payUrl }) => checkout.open(payUrl) },
    );
  };
  const back = pathname.replace(/\/buy\/?$/, '');

  return (
    <Card
      title={t('buy.title')}
      size="small"
      data-testid="accel-buy-page"
      extra={
        <Button onClick={() => void navigate(back)} data-testid="accel-back">
          {t('buy.back')}
        </Button>
      }
    >
      <Flex wrap gap={24} align="flex-start">
        <Form layout="vertical" style={{ flex: '1 1 320px', minWidth: 0, maxWidth: 560 }} onFinish={submit}>
          <Typography.Paragraph type="secondary">{t('buy.hint')}</Typography.Paragraph>
          <Form.Item label={t('buy.datalogger')} required>
            <Select
              showSearch={{ filterOption: false, onSearch: (v) => setSearch(v.trim()) }}
              value={pn}
              onChange={pick}
              placeholder={t('buy.pickDatalogger')}
              loading={candidates.isFetching}
              notFoundContent={candidates.isFetching ? <Spin size="small" /> : t('buy.noCandidates')}
              options={rows.map((r) => ({
                value: r.pn,
                label: `${r.pn}${r.alias ? ` · ${r.alias}` : ''} (${t('seconds', { n: r.collectInterval })})`,
              }))}
              style={{ width: '100%' }}
              id="accel-datalogger"
              data-testid="accel-datalogger"
            />
          </Form.Item>
          <Form.Item label={t('buy.type')} required>
            <Radio.Group
              value={type}
              onChange={(e) => setType(e.target.value as AccelerationType)}
              data-testid="accel-type"
            >
              <Space orientation="vertical">
                {ACCELERATION_TYPES.map((k) => (
                  <Radio key={k} value={k} data-testid={`accel-type-${k}`}>
                    {t(`type.${k}`)}
                    <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                      {t(`typeHint.${k}`)}
                    </Typography.Text>
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </Form.Item>
          <Form.Item
            label={t('buy.interval')}
            required
            extra={picked ? t('buy.currentInterval', { n: picked.collectInterval }) : undefined}
          >
            {picked && offered.length === 0 ? (
              <Typography.Text type="secondary" data-testid="accel-fastest">
                {t('buy.alreadyFastest')}
              </Typography.Text>
            ) : (
              <Radio.Group
                optionType="button"
                value={interval}
                onChange={(e) => setInterval(Number(e.target.value))}
                options={offered.map((i) => ({ value: i, label: t('seconds', { n: i }) }))}
                data-testid="accel-interval"
              />
            )}
          </Form.Item>
          {type === 'history' && (
            <Form.Item label={t('buy.storage')} required>
              <Select
                value={storage}
                onChange={setStorage}
                options={ACCELERATION_STORAGE_MONTHS.map((m) => ({
                  value: m,
                  label: t('storageMonths', { count: m }),
                }))}
                style={{ width: 200, maxWidth: '100%' }}
                data-testid="accel-storage"
              />
            </Form.Item>
          )}
          <Form.Item label={t('buy.method')} required extra={method === 'paypal' ? t('buy.paypalRmb') : undefined}>
            <Radio.Group
              value={method}
              onChange={(e) => setMethod(e.target.value as RechargePaymentMethod)}
              options={RECHARGE_PAYMENT_METHODS.map((m) => ({ value: m, label: t(`method.${m}`) }))}
              data-testid="accel-method"
            />
          </Form.Item>
          <Form.Item>
            <Checkbox
              checked={accepted}
              onChange={(e) => (e.target.checked ? setTermsOpen(true) : setAccepted(false))}
              data-testid="accel-terms-check"
            >
              {t('buy.acceptTerms')}
            </Checkbox>
            <Button type="link" size="small" onClick={() => setTermsOpen(true)} data-testid="accel-terms-open">
              {t('buy.readTerms')}
            </Button>
          </Form.Item>
          {buy.isError && (
            <Alert
              type="error"
              showIcon
              title={apiErrorText(buy.error)}
              style={{ marginBottom: 16 }}
              data-testid="accel-buy-error"
            />
          )}
          <Button
            type="primary"
            htmlType="submit"
            disabled={!params || !quote.data || !accepted}
            loading={buy.isPending}
            data-testid="accel-submit"
          >
            {t('buy.submit')}
          </Button>
        </Form>
        <Card
          size="small"
          title={t('buy.price')}
          style={{ flex: '1 1 260px', maxWidth: 420 }}
          data-testid="accel-price-card"
        >
          {!params ? (
            <Typography.Text type="secondary">{t('buy.pricePending')}</Typography.Text>
          ) : quote.isError ? (
            <Alert type="warning" showIcon title={apiErrorText(quote.error)} data-testid="accel-quote-error" />
          ) : !quote.data ? (
            <Spin />
          ) : (
            <Space orientation="vertical" style={{ width: '100%' }}>
              <Statistic
                value={formatMoney(quote.data.price.totalMinor, quote.data.price.currency, locale)}
                data-testid="accel-price"
              />
              <Descriptions size="small" column={1}>
                <Descriptions.Item label={t('price.interval')}>
                  {t('intervalChange', { from: quote.data.currentInterval, to: quote.data.interval })}
                </Descriptions.Item>
                <Descriptions.Item label={t('price.parameters')}>
                  {t('price.blocks', { n: quote.data.parameters, blocks: quote.data.price.blocks })}
                </Descriptions.Item>
                <Descriptions.Item label={t('price.loads')}>{quote.data.price.loads}</Descriptions.Item>
                <Descriptions.Item label={t('price.collection')}>
                  {formatMoney(quote.data.price.collectionMinor, quote.data.price.currency, locale)}
                </Descriptions.Item>
                {quote.data.type === 'history' && (
                  <Descriptions.Item label={t('price.storage')}>
                    {formatMoney(quote.data.price.storageMinor, quote.data.price.currency, locale)}
                  </Descriptions.Item>
                )}
              </Descriptions>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('price.once')}
              </Typography.Text>
            </Space>
          )}
        </Card>
      </Flex>
      <TermsDialog
        open={termsOpen}
        onClose={() => setTermsOpen(false)}
        onAccept={() => {
          setAccepted(true);
          setTermsOpen(false);
        }}
      />
    </Card>
  );
}
