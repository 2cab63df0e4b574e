/**
 * setting/rate (spec §2; issue 15, docs/money/tariffs.md), in the adminNew, generalNew and general
 * areas: choose a plant the account sees; its prices in force and currency, the tariff history
 * (a change applies from its date and never rewrites the past; planned tariffs can be edited or
 * deleted), a new tariff with optional time-of-use periods, and the plant's income per period and
 * per month. The chosen plant is kept in the address (`?pid=`).
 */
import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Empty,
  Flex,
  Popconfirm,
  Select,
  Skeleton,
  Space,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TARIFF_PRICE_KEYS, type TariffWire } from '@sunwatch/protocol';
import { currentLocale } from '../../../i18n';
import { apiErrorText, notice } from '../../../app/notify';
import { bcp47 } from '../../shared/charts/format';
import { useDelTariff, useRatePlants, useTariffs } from '../api/queries';
import { IncomePanel } from '../components/IncomePanel';
import { TariffDialog } from '../components/TariffDialog';
import { WeekGrid } from '../components/WeekGrid';
import { formatPrice } from '../model';

const STATE_COLORS: Record<TariffWire['state'], string> = { past: 'default', current: 'green', future: 'blue' };

export default function RatePage() {
  const { t } = useTranslation('rates');
  const locale = bcp47(currentLocale());
  const [params, setParams] = useSearchParams();
  const pidParam = Number(params.get('pid'));
  const [search, setSearch] = useState('');
  const plants = useRatePlants(search);
  const list = plants.data?.plant ?? [];
  const pid = pidParam > 0 ? pidParam : list[0]?.pid;
  const tariffs = useTariffs(pid);
  const del = useDelTariff();
  const [dialog, setDialog] = useState<{ editing?: TariffWire }>();

  const choose = (v: number) => setParams((p) => (p.set('pid', String(v)), p), { replace: true });
  const data = tariffs.data;
  const current = data?.current;
  const today = current ? todayOf(data) : '';

  const prices = (w: TariffWire) => (
    <Descriptions
      size="small"
      column={{ xs: 1, sm: 2, lg: 3 }}
      items={TARIFF_PRICE_KEYS.map((k) => ({
        key: k,
        label: t(`prices.${k}`),
        children: <span data-testid={`price-${k}`}>{formatPrice(w.prices[k], w.currency, locale)}</span>,
      }))}
    />
  );

  const remove = async (w: TariffWire) => {
    try {
      await del.mutateAsync(w.id);
      notice().success(t('add.deleted'));
    } catch (e) {
      notice().error(apiErrorText(e));
    }
  };

  return (
    <Flex vertical gap={16} data-testid="rate-page">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('intro')}
      </Typography.Paragraph>
      <Select<number>
        showSearch
        filterOption={false}
        onSearch={setSearch}
        value={pid}
        onChange={choose}
        loading={plants.isFetching}
        placeholder={t('pickPlant')}
        aria-label={t('plant')}
        options={list.map((p) => ({ value: p.pid, label: p.name }))}
        style={{ width: '100%', maxWidth: 420 }}
        data-testid="rate-plant"
        id="rate-plant"
      />
      {plants.isError && <Alert type="error" showIcon message={apiErrorText(plants.error)} />}
      {pid === undefined && !plants.isFetching && <Empty description={t('noPlant')} />}
      {pid !== undefined && tariffs.isError && <Alert type="error" showIcon message={apiErrorText(tariffs.error)} />}
      {pid !== undefined && !data && !tariffs.isError && <Skeleton active />}
      {pid !== undefined && data && current && (
        <>
          <Card
            size="small"
            title={t('current.title')}
            extra={
              data.canEdit && (
                <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({})} data-testid="tariff-add">
                  {t('add.button')}
                </Button>
              )
            }
          >
            <Space wrap style={{ marginBottom: 8 }}>
              <Tag data-testid="rate-currency">{current.currency}</Tag>
              <Typography.Text type="secondary">
                {current.from ? t('current.since', { from: current.from.slice(0, 16) }) : t('current.always')}
              </Typography.Text>
            </Space>
            {prices(current)}
            {current.periods.length > 0 && <WeekGrid periods={current.periods} />}
          </Card>
          <Card size="small" title={t('income.title')}>
            <IncomePanel pid={pid} />
          </Card>
          <Card size="small" title={t('history.title')}>
            <Timeline
              data-testid="tariff-history"
              items={data.tariffs.map((w) => ({
                key: w.id,
                color: w.state === 'current' ? 'green' : w.state === 'future' ? 'blue' : 'gray',
                children: (
                  <div data-testid="tariff-item" data-state={w.state}>
                    <Space wrap>
                      <Tag color={STATE_COLORS[w.state]}>{t(`history.state.${w.state}`)}</Tag>
                      <Typography.Text strong>
                        {w.from ? t('history.from', { from: w.from.slice(0, 16) }) : t('current.always')}
                      </Typography.Text>
                      {w.until && (
                        <Typography.Text type="secondary">
                          {t('history.until', { until: w.until.slice(0, 16) })}
                        </Typography.Text>
                      )}
                      <Tag>{w.currency}</Tag>
                      {w.periods.length > 0 && (
                        <Tag color="orange">{t('history.periods', { n: w.periods.length })}</Tag>
                      )}
                      {w.createdBy && (
                        <Typography.Text type="secondary">{t('history.by', { usr: w.createdBy })}</Typography.Text>
                      )}
                    </Space>
                    <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
                      {TARIFF_PRICE_KEYS.filter((k) => w.prices[k] > 0)
                        .map((k) => `${t(`prices.${k}`)} ${formatPrice(w.prices[k], w.currency, locale)}`)
                        .join(' · ') || t('history.noPrices')}
                    </Typography.Paragraph>
                    {w.state === 'future' && data.canEdit && (
                      <Space>
                        <Button size="small" onClick={() => setDialog({ editing: w })} data-testid="tariff-edit">
                          {t('history.edit')}
                        </Button>
                        <Popconfirm
                          title={t('history.confirmDelete', { from: w.from.slice(0, 10) })}
                          okText={t('history.delete')}
                          cancelText={t('add.cancel')}
                          onConfirm={() => remove(w)}
                        >
                          <Button size="small" danger data-testid="tariff-delete">
                            {t('history.delete')}
                          </Button>
                        </Popconfirm>
                      </Space>
                    )}
                  </div>
                ),
              }))}
            />
          </Card>
          {dialog && (
            <TariffDialog
              pid={pid}
              current={current}
              editing={dialog.editing}
              today={today}
              onClose={() => setDialog(undefined)}
            />
          )}
        </>
      )}
    </Flex>
  );
}

/** The plant's local date today, "YYYY-MM-DD" (from its time zone). */
function todayOf(d: { timezone: number }): string {
  return new Date(Date.now() + d.timezone * 1000).toISOString().slice(0, 10);
}
