/**
 * A plant's page (…/project/:pid): header (name, status, address, picture, owner), live power
 * and energy today/month/year/total with income, the plant-wide energy flow, the environment
 * monitor, the power curve and energy charts, its dataloggers and devices and its alarm count;
 * edit and delete for those who may write.
 */
import { lazy, Suspense, useState } from 'react';
import { Alert, Button, Card, Col, Descriptions, Empty, Flex, Row, Skeleton, Space, Statistic, Typography } from 'antd';
import { ArrowLeftOutlined, DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { ApiCallError, CURRENCY_SYMBOLS, normalizeCurrency, timezoneLabel, type PlantCurrentKey } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { apiErrorText } from '../../../app/notify';
import { plantTodayDayjs } from '../../../app/plant-day';
import { loadAddDataloggerDialog, PlantPanels } from '../../../app/plant-panels';
import { areaOfPath } from '../../../app/routes';
import { currentLocale } from '../../../i18n';
import { formatEnergy, formatMoney, formatNumber, formatPercent, formatPower, scaleEnergy, scalePower, toNumber } from '../../shared/charts/format';
import { plantAlarmsPathFrom } from '../../shared/alarms/paths';
import { StatusTag } from '../../shared/devices/components/StatusTag';
import { projectListPath } from '../../shared/plants/paths';
import { plantFlow } from '../api/plant-flow';
import { PLANT_FIGURE_KEYS, usePlantFigures, usePlantInfo, usePlantRow } from '../api/queries';
import { usePlantDeviceView, usePlantEnvMonitor } from '../api/view-queries';
import { EnvMonitorCard } from '../components/EnvMonitorCard';
import { PlantDevicesCard } from '../components/PlantDevicesCard';
import { PlantFlowCard } from '../components/PlantFlowCard';
import { useDeletePlant } from '../components/use-delete-plant';
import { usePlantWriteAccess } from '../components/use-plant-writes-access';
import { fileUrl } from '../../../app/node-url';

const PlantCharts = lazy(() => import('../components/PlantCharts'));
const PlantFormDialog = lazy(() => import('../components/PlantFormDialog'));
const AddDataloggerDialog = lazy(loadAddDataloggerDialog);

/** The big tiles; the others show in the figure list. */
const TILES: readonly PlantCurrentKey[] = ['CURRENT_POWER', 'ENERGY_TODAY', 'ENERGY_MONTH', 'ENERGY_YEAR', 'ENERGY_TOTAL', 'ENERGY_PROCEEDS'];

export default function PlantPage() {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const pid = Number(useParams().pid);
  const info = usePlantInfo(Number.isInteger(pid) ? pid : 0);
  const plant = info.data;
  const figures = usePlantFigures(plant ? pid : 0);
  const row = usePlantRow(plant ? pid : 0, plant?.name);
  const view = usePlantDeviceView(plant ? pid : 0);
  const env = usePlantEnvMonitor(plant ? pid : 0);
  const access = usePlantWriteAccess();
  const confirmDelete = useDeletePlant();
  const [editing, setEditing] = useState(false);
  const [binding, setBinding] = useState(false);
  const back = projectListPath(areaOfPath(pathname)) ?? '..';

  if (!Number.isInteger(pid) || pid <= 0 || (info.isError && info.error instanceof ApiCallError && info.error.err === 260)) {
    return (
      <Card>
        <Empty description={t('plants:page.notFound')}>
          <Link to={back}>{t('plants:page.back')}</Link>
        </Empty>
      </Card>
    );
  }
  if (info.isPending) return <Skeleton active paragraph={{ rows: 12 }} />;
  if (info.isError || !plant) return <Alert type="error" showIcon message={t('plants:page.loadFailed')} description={apiErrorText(info.error)} />;

  const f = figures.data ?? {};
  const currency = normalizeCurrency(plant.profit.currency);
  const symbol = currency ? CURRENCY_SYMBOLS[currency] : plant.profit.currency;
  const flow = plantFlow({ power: f.CURRENT_POWER, load: row.data?.loadPower, grid: row.data?.gridPower, battery: row.data?.batteryPower, soc: f.BATTERY_SOC });
  const address = [plant.address.address, plant.address.town, plant.address.county, plant.address.city, plant.address.province, plant.address.country]
    .filter((part, i, all) => part && part !== all[i - 1])
    .join(', ');
  const today = plantTodayDayjs(plant.address.timezone);

  const tile = (key: PlantCurrentKey) => {
    const n = toNumber(f[key]);
    let value = '--';
    let suffix: string | undefined;
    if (n !== undefined) {
      if (key === 'CURRENT_POWER') {
        const s = scalePower(n);
        value = formatNumber(s.value, locale);
        suffix = s.unit;
      } else if (key === 'ENERGY_PROCEEDS') {
        value = formatNumber(n, locale, 2, 2);
        suffix = symbol;
      } else {
        const s = scaleEnergy(n);
        value = formatNumber(s.value, locale);
        suffix = s.unit;
      }
    }
    return (
      <Col key={key} xs={12} sm={8} xl={4}>
        <Card size="small" data-testid={`plant-figure-${key}`}>
          <Statistic title={t(`plants:figures.${key}`)} value={value} suffix={suffix} loading={figures.isPending} />
        </Card>
      </Col>
    );
  };

  const lat = toNumber(plant.address.lat);
  const lon = toNumber(plant.address.lon);
  const alarms = view.data?.alarms;

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="plant-page" data-pid={pid}>
      <Card>
        <Flex gap={16} wrap align="flex-start">
          {plant.picSmall && (
            <a href={plant.picBig || plant.picSmall} target="_blank" rel="noreferrer" data-testid="plant-picture">
              <img src={fileUrl(plant.picSmall)} width={120} height={90} style={{ objectFit: 'cover', borderRadius: 8, display: 'block' }} alt={plant.name} />
            </a>
          )}
          <Flex vertical gap={6} style={{ flex: '1 1 240px', minWidth: 0 }}>
            <Flex gap={8} align="center" wrap>
              <Link to={back}>
                <Button icon={<ArrowLeftOutlined />} aria-label={t('plants:page.back')} />
              </Link>
              <Typography.Title level={4} style={{ margin: 0 }} data-testid="plant-name">
                {plant.name}
              </Typography.Title>
              <StatusTag status={plant.status} />
              {plant.isDefault && <Typography.Text type="secondary">· {t('plants:page.default')}</Typography.Text>}
            </Flex>
            <Typography.Text type="secondary" data-testid="plant-address">
              {address || t('plants:page.noAddress')}
            </Typography.Text>
            {plant.remark && <Typography.Paragraph style={{ margin: 0 }}>{plant.remark}</Typography.Paragraph>}
          </Flex>
          {access.write && (
            <Space wrap>
              {access.edit && (
                <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="plant-edit">
                  {t('plants:actions.edit')}
                </Button>
              )}
              {access.remove && (
                <Button danger icon={<DeleteOutlined />} onClick={() => confirmDelete(plant, () => void navigate(back))} data-testid="plant-delete">
                  {t('plants:actions.delete')}
                </Button>
              )}
            </Space>
          )}
        </Flex>
        <Descriptions size="small" style={{ marginTop: 12 }} column={{ xs: 1, sm: 2, lg: 3, xl: 4 }}>
          <Descriptions.Item label={t('plants:form.nominalPower')}>{formatPower(plant.nominalPower, locale)}</Descriptions.Item>
          <Descriptions.Item label={t('plants:form.timezone')}>{timezoneLabel(plant.address.timezone)}</Descriptions.Item>
          <Descriptions.Item label={t('plants:form.install')}>{plant.install ? plant.install.slice(0, 10) : '--'}</Descriptions.Item>
          <Descriptions.Item label={t('plants:form.installer')}>{plant.installer || '--'}</Descriptions.Item>
          <Descriptions.Item label={t('plants:page.owner')}>{plant.usr || '--'}</Descriptions.Item>
          <Descriptions.Item label={t('plants:page.coordinates')}>
            <span data-testid="plant-coordinates">{lat !== undefined && lon !== undefined ? `${lat}, ${lon}` : '--'}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('plants:form.currency')}>{currency ?? (plant.profit.currency || '--')}</Descriptions.Item>
          <Descriptions.Item label={t('plants:form.unitProfit')}>{formatMoney(plant.profit.unitProfit, locale, symbol)}</Descriptions.Item>
          <Descriptions.Item label={t('plants:page.alarms')}>
            <Link to={plantAlarmsPathFrom(pathname, pid) ?? ''} data-testid="plant-alarms-count-link">
              <span data-testid="plant-alarms">{alarms === undefined ? '--' : formatNumber(alarms, locale, 0)}</span>
            </Link>
          </Descriptions.Item>
        </Descriptions>
      </Card>

      <Row gutter={[12, 12]}>{TILES.map(tile)}</Row>
      {figures.isError && <Alert type="error" showIcon message={t('plants:page.loadFailed')} description={apiErrorText(figures.error)} />}

      <Row gutter={[12, 12]}>
        <Col xs={24} lg={12}>
          <PlantFlowCard flow={flow} />
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small" title={t('plants:page.more')}>
            <Descriptions size="small" column={{ xs: 1, sm: 2 }}>
              {PLANT_FIGURE_KEYS.filter((k) => !TILES.includes(k)).map((k) => (
                <Descriptions.Item key={k} label={t(`plants:figures.${k}`)}>
                  {k === 'BATTERY_SOC'
                    ? formatPercent(f[k], locale)
                    : k === 'CURRENT_TEMP'
                      ? toNumber(f[k]) === undefined ? '--' : `${formatNumber(f[k], locale, 1)} °C`
                      : k === 'CURRENT_RADIANT'
                        ? toNumber(f[k]) === undefined ? '--' : `${formatNumber(f[k], locale, 0)} W/m²`
                        : toNumber(f[k]) === undefined ? '--' : `${formatNumber(f[k], locale)} kg`}
                </Descriptions.Item>
              ))}
              <Descriptions.Item label={t('plants:page.incomeToday')}>
                <span data-testid="plant-income-today">{formatMoney(row.data?.profitToday, locale, symbol)}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('plants:page.consumption')}>{formatPower(row.data?.loadPower, locale)}</Descriptions.Item>
              <Descriptions.Item label={t('plants:page.usedToday')}>{formatEnergy(row.data?.energyUsed, locale)}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
      </Row>

      {env.data && env.data.length > 0 && <EnvMonitorCard monitors={env.data} />}

      <Card size="small" title={t('plants:charts.title')}>
        <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
          <PlantCharts pid={pid} today={today} />
        </Suspense>
      </Card>

      {view.isPending ? (
        <Skeleton active />
      ) : view.isError ? (
        <Alert type="error" showIcon message={t('plants:page.loadFailed')} description={apiErrorText(view.error)} />
      ) : (
        <PlantDevicesCard view={view.data} onAdd={access.addDatalogger ? () => setBinding(true) : undefined} />
      )}

      {binding && (
        <Suspense fallback={null}>
          <AddDataloggerDialog
            initialTab="single"
            plant={{ pid, name: plant.name }}
            onClose={() => {
              setBinding(false);
              // the new datalogger on this page: its tree, status, figures
              void view.refetch();
              void info.refetch();
            }}
          />
        </Suspense>
      )}
      <PlantPanels pid={pid} />

      {editing && (
        <Suspense fallback={null}>
          <PlantFormDialog open={editing} plant={plant} chooseOwner={false} onClose={() => setEditing(false)} />
        </Suspense>
      )}
    </Space>
  );
}
