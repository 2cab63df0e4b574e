/** A plant's income today / this month / this year / total (one line per currency) and per month of a year. */
import { useState } from 'react';
import { Alert, Card, Col, Empty, Flex, Row, Select, Skeleton, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { IncomeFigure } from '@sunwatch/protocol';
import { currentLocale } from '../../../i18n';
import { EChart } from '../../shared/charts/EChart';
import { energyOption } from '../../shared/charts/options';
import { bcp47, formatNumber } from '../../shared/charts/format';
import { apiErrorText } from '../../../app/notify';
import { useIncome } from '../api/queries';
import { formatMoney } from '../model';

const PERIODS = ['today', 'month', 'year', 'total'] as const;

export function IncomePanel({ pid }: { pid: number }) {
  const { t } = useTranslation('rates');
  const locale = bcp47(currentLocale());
  const [year, setYear] = useState<string>();
  const q = useIncome(pid, year);
  const d = q.data;
  if (q.isError) return <Alert type="error" showIcon message={apiErrorText(q.error)} />;
  if (!d) return <Skeleton active />;
  const money = (v: string, c: string) => formatMoney(v, c, locale);
  const thisYear = Number(d.date.slice(0, 4));
  const months = Array.from({ length: 12 }, (_, i) => `${d.chartYear}-${String(i + 1).padStart(2, '0')}`);
  const currencies = [...new Set(d.months.map((m) => m.currency))];
  if (currencies.length === 0) currencies.push(d.currency);
  const series = currencies.flatMap((c) => [
    {
      name: `${t('income.generation')} (${c})`,
      values: months.map((m) => d.months.find((x) => x.month === m && x.currency === c)?.generationIncome ?? 0),
    },
    {
      name: `${t('income.net')} (${c})`,
      values: months.map((m) => d.months.find((x) => x.month === m && x.currency === c)?.net ?? 0),
    },
  ]);
  const line = (f: IncomeFigure) => (
    <div key={f.currency} data-testid="income-figure" data-currency={f.currency}>
      <Statistic value={money(f.generationIncome, f.currency)} valueStyle={{ fontSize: 20 }} />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('income.energy', { kwh: formatNumber(f.generated, locale) })} · {t('income.net')} {money(f.net, f.currency)}
      </Typography.Text>
    </div>
  );
  return (
    <Flex vertical gap={12}>
      <Row gutter={[12, 12]}>
        {PERIODS.map((p) => (
          <Col xs={12} md={6} key={p}>
            <Card size="small" title={t(`income.${p}`)} data-testid={`income-${p}`}>
              {d[p].map(line)}
            </Card>
          </Col>
        ))}
      </Row>
      <Typography.Text type="secondary">{t('income.frozen')}</Typography.Text>
      <Card
        size="small"
        title={t('income.chart')}
        extra={
          <Select
            value={d.chartYear}
            onChange={setYear}
            aria-label={t('income.chartYear')}
            options={Array.from({ length: 6 }, (_, i) => String(thisYear - i)).map((y) => ({ value: y, label: y }))}
            style={{ width: 100 }}
            data-testid="income-year"
          />
        }
      >
        {d.months.length === 0 ? (
          <Empty description={t('income.noData')} />
        ) : (
          <EChart
            option={energyOption(
              months.map((m) => m.slice(5)),
              series,
              'bar',
              currencies.join('/'),
              locale,
            )}
            height={280}
            ariaLabel={t('income.chart')}
          />
        )}
      </Card>
    </Flex>
  );
}
