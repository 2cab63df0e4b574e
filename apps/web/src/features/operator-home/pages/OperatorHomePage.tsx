/**
 * /adminNewStatr/home (issue 14, operator only): the platform at a glance — accounts, plants,
 * dataloggers and devices by status (donuts), the ingest rate and the action calls of the last 24
 * hours (bars), storage used, the slowest actions by p99, and the mail, export and upgrade queues
 * with the background jobs. One call (`queryOperatorHome`), refreshed every minute.
 */
import { Alert, Button, Card, Col, Empty, Flex, Row, Skeleton, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { OperatorHomeDat, OperatorHomeJob, OperatorHomeSlowAction } from '@sunwatch/protocol';
import { apiErrorText } from '../../../app/notify';
import { currentLocale } from '../../../i18n';
import { bcp47, formatNumber } from '../../shared/charts/format';
import { Bars } from '../../shared/charts/svg/Bars';
import { Donut } from '../../shared/charts/svg/Donut';
import { statusColor, statusLabelKey } from '../../shared/devices/status';
import { useOperatorHome } from '../api/queries';
import { formatBytes, formatMs, formatRate, hourLabel } from '../model';

function Figure({ title, value, testId, hint }: { title: string; value: string; testId: string; hint?: string }) {
  return (
    <Card size="small" style={{ height: '100%' }} data-testid={testId}>
      <Statistic title={hint ? <Tooltip title={hint}>{title}</Tooltip> : title} value={value} />
    </Card>
  );
}

function DataloggerDonut({ d }: { d: OperatorHomeDat }) {
  const { t } = useTranslation('operatorHome');
  const locale = currentLocale();
  const title = t('dataloggers');
  const slices = [
    { name: t('online'), value: d.dataloggers.online, color: '#52c41a' },
    { name: t('offline'), value: d.dataloggers.offline, color: '#8c8c8c' },
  ].filter((s) => s.value > 0);
  return (
    <Card title={title} size="small" style={{ height: '100%' }}>
      {d.dataloggers.total === 0 ? (
        <Empty description={t('none')} />
      ) : (
        <Donut
          slices={slices}
          total={d.dataloggers.total}
          locale={locale}
          ariaLabel={title}
          testId="home-dataloggers"
        />
      )}
    </Card>
  );
}

function DeviceDonut({ d }: { d: OperatorHomeDat }) {
  const { t } = useTranslation('operatorHome');
  const locale = currentLocale();
  const title = t('devicesByStatus');
  const slices = d.devices.byStatus
    .map((value, status) => ({ name: t(statusLabelKey(status)), value, color: statusColor(status) }))
    .filter((s) => s.value > 0);
  return (
    <Card title={title} size="small" style={{ height: '100%' }}>
      {d.devices.total === 0 ? (
        <Empty description={t('none')} />
      ) : (
        <Donut slices={slices} total={d.devices.total} locale={locale} ariaLabel={title} testId="home-devices" />
      )}
    </Card>
  );
}

function IngestCard({ d }: { d: OperatorHomeDat }) {
  const { t } = useTranslation('operatorHome');
  const locale = currentLocale();
  const i = d.ingest;
  const labels = i.hours.map((h) => hourLabel(h.start, locale));
  return (
    <Card title={t('ingest')} size="small" extra={t('instances', { count: i.instances })} data-testid="home-ingest">
      <Row gutter={[16, 8]}>
        <Col xs={12} md={6}>
          <Statistic title={t('framesPerSec')} value={formatNumber(i.framesPerSec, locale)} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('pointsPerSec')} value={formatNumber(i.pointsPerSec, locale)} />
        </Col>
        <Col xs={12} md={6} data-testid="home-frames24h">
          <Statistic
            title={t('frames24h')}
            value={formatNumber(i.frames24h, locale, 0)}
            suffix={
              <Typography.Text type="secondary">
                {t('avgPerSec', { v: formatNumber(i.framesPerSec24h, locale) })}
              </Typography.Text>
            }
          />
        </Col>
        <Col xs={12} md={6}>
          <Statistic
            title={t('points24h')}
            value={formatNumber(i.points24h, locale, 0)}
            suffix={
              <Typography.Text type="secondary">
                {t('avgPerSec', { v: formatNumber(i.pointsPerSec24h, locale) })}
              </Typography.Text>
            }
          />
        </Col>
        <Col xs={24} lg={12}>
          <Typography.Text type="secondary">{t('framesPerHour')}</Typography.Text>
          <Bars
            labels={labels}
            values={i.hours.map((h) => h.frames)}
            seriesName={t('framesPerHour')}
            locale={locale}
            integer
            color="#1677ff"
            testId="home-frames-chart"
          />
        </Col>
        <Col xs={24} lg={12}>
          <Typography.Text type="secondary">{t('pointsPerHour')}</Typography.Text>
          <Bars
            labels={labels}
            values={i.hours.map((h) => h.points)}
            seriesName={t('pointsPerHour')}
            locale={locale}
            integer
            color="#13c2c2"
            testId="home-points-chart"
          />
        </Col>
      </Row>
    </Card>
  );
}

function ActionsCard({ d }: { d: OperatorHomeDat }) {
  const { t } = useTranslation('operatorHome');
  const locale = currentLocale();
  const a = d.actions;
  const labels = a.hours.map((h) => hourLabel(h.start, locale));
  return (
    <Card title={t('actions')} size="small" data-testid="home-actions">
      <Row gutter={[16, 8]}>
        <Col xs={12} md={6} data-testid="home-calls-per-min">
          <Statistic title={t('callsPerMin')} value={formatNumber(a.callsPerMin, locale)} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic
            title={t('errorRate')}
            value={formatRate(a.errorRate, locale)}
            valueStyle={a.errorRate >= 0.05 ? { color: '#cf1322' } : undefined}
          />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('calls24h')} value={formatNumber(a.calls24h, locale, 0)} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('errorRate24h')} value={formatRate(a.errorRate24h, locale)} />
        </Col>
        <Col xs={24} lg={12}>
          <Typography.Text type="secondary">{t('callsPerHour')}</Typography.Text>
          <Bars
            labels={labels}
            values={a.hours.map((h) => h.calls)}
            seriesName={t('callsPerHour')}
            locale={locale}
            integer
            color="#722ed1"
            testId="home-calls-chart"
          />
        </Col>
        <Col xs={24} lg={12}>
          <Typography.Text type="secondary">{t('errorsPerHour')}</Typography.Text>
          <Bars
            labels={labels}
            values={a.hours.map((h) => h.errors)}
            seriesName={t('errorsPerHour')}
            locale={locale}
            integer
            color="#f5222d"
            testId="home-errors-chart"
          />
        </Col>
      </Row>
    </Card>
  );
}

function SlowestCard({ d }: { d: OperatorHomeDat }) {
  const { t } = useTranslation('operatorHome');
  const locale = currentLocale();
  return (
    <Card title={t('slowest')} size="small" style={{ height: '100%' }}>
      <Table<OperatorHomeSlowAction>
        size="small"
        rowKey="action"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={d.actions.slowest}
        locale={{ emptyText: t('noCalls') }}
        data-testid="home-slowest"
        columns={[
          {
            title: t('col.action'),
            dataIndex: 'action',
            render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
          },
          { title: t('col.p99'), dataIndex: 'p99Ms', align: 'right', render: (v: number) => formatMs(v, locale) },
          { title: t('col.avg'), dataIndex: 'avgMs', align: 'right', render: (v: number) => formatMs(v, locale) },
          { title: t('col.max'), dataIndex: 'maxMs', align: 'right', render: (v: number) => formatMs(v, locale) },
          {
            title: t('col.calls'),
            dataIndex: 'calls',
            align: 'right',
            render: (v: number) => formatNumber(v, locale, 0),
          },
        ]}
      />
    </Card>
  );
}

function QueuesCard({ d }: { d: OperatorHomeDat }) {
  const { t } = useTranslation('operatorHome');
  const locale = currentLocale();
  const q = d.queues;
  const when = (ms: number | null) =>
    ms === null
      ? '—'
      : new Intl.DateTimeFormat(bcp47(locale), { dateStyle: 'short', timeStyle: 'short' }).format(new Date(ms));
  const n = (v: number) => formatNumber(v, locale, 0);
  return (
    <Card title={t('queues')} size="small" style={{ height: '100%' }} data-testid="home-queues">
      <Row gutter={[16, 8]}>
        <Col xs={12} sm={8}>
          <Statistic title={t('mailPending')} value={n(q.mailPending)} />
        </Col>
        <Col xs={12} sm={8}>
          <Statistic
            title={t('mailFailed')}
            value={n(q.mailFailed)}
            valueStyle={q.mailFailed > 0 ? { color: '#cf1322' } : undefined}
          />
        </Col>
        <Col xs={12} sm={8}>
          <Statistic title={t('exporting')} value={n(q.exporting)} />
        </Col>
        <Col xs={12} sm={8}>
          <Statistic title={t('upgradesWaiting')} value={n(q.upgradesWaiting)} />
        </Col>
        <Col xs={12} sm={8}>
          <Statistic title={t('upgradesRunning')} value={n(q.upgradesRunning)} />
        </Col>
      </Row>
      <Table<OperatorHomeJob>
        style={{ marginTop: 12 }}
        size="small"
        rowKey="name"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={q.jobs}
        locale={{ emptyText: t('noJobs') }}
        columns={[
          { title: t('col.job'), dataIndex: 'name' },
          { title: t('col.lastRun'), dataIndex: 'lastRunAt', render: (v: number | null) => when(v) },
          {
            title: t('col.state'),
            dataIndex: 'lastError',
            render: (err: string, j) =>
              err ? (
                <Tooltip title={err}>
                  <Tag color="error">{t('jobFailed')}</Tag>
                </Tooltip>
              ) : j.lastRunAt === null ? (
                <Tag>{t('jobNever')}</Tag>
              ) : (
                <Tag color="success">{t('jobOk')}</Tag>
              ),
          },
        ]}
      />
    </Card>
  );
}

export default function OperatorHomePage() {
  const { t } = useTranslation('operatorHome');
  const q = useOperatorHome();
  const locale = currentLocale();
  if (q.isPending) return <Skeleton active paragraph={{ rows: 12 }} />;
  if (q.isError) return <Alert type="error" showIcon message={t('loadFailed')} description={apiErrorText(q.error)} />;
  const d = q.data;
  const n = (v: number) => formatNumber(v, locale, 0);
  const at = new Intl.DateTimeFormat(bcp47(locale), { timeStyle: 'medium' }).format(new Date(d.at));
  return (
    <Flex vertical gap={16} data-testid="operator-home">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('menu:items.operatorHome')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('title')}</Typography.Text>
        </div>
        <Flex align="center" gap={8}>
          <Typography.Text type="secondary">{t('updatedAt', { time: at })}</Typography.Text>
          <Button
            icon={<ReloadOutlined />}
            loading={q.isFetching}
            onClick={() => void q.refetch()}
            aria-label={t('refresh')}
          />
        </Flex>
      </Flex>
      <Row gutter={[16, 16]}>
        <Col xs={12} md={8} xl={4}>
          <Figure title={t('manufacturers')} value={n(d.accounts.manufacturers)} testId="home-manufacturers" />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Figure title={t('distributors')} value={n(d.accounts.distributors)} testId="home-distributors" />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Figure title={t('owners')} value={n(d.accounts.owners)} testId="home-owners" />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Figure title={t('plants')} value={n(d.plants)} testId="home-plants" />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Figure
            title={t('dataloggersOnline')}
            value={t('onlineOf', { online: n(d.dataloggers.online), total: n(d.dataloggers.total) })}
            testId="home-dataloggers-online"
          />
        </Col>
        <Col xs={12} md={8} xl={4}>
          <Figure
            title={t('storage')}
            value={formatBytes(d.storage.bytes, locale)}
            testId="home-storage"
            hint={t(d.storage.engine === 'sqlite' ? 'storageSqlite' : 'storagePostgres')}
          />
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <DataloggerDonut d={d} />
        </Col>
        <Col xs={24} md={12}>
          <DeviceDonut d={d} />
        </Col>
      </Row>
      <IngestCard d={d} />
      <ActionsCard d={d} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <SlowestCard d={d} />
        </Col>
        <Col xs={24} xl={12}>
          <QueuesCard d={d} />
        </Col>
      </Row>
    </Flex>
  );
}
