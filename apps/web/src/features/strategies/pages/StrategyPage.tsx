/**
 * adminNew/setting/strategy (spec §2 "Strategy (local upgrade)", §4 "Upgrade strategy"): the
 * strategies of the caller's scope, paged on the server, searchable and filtered by status; each
 * card shows firmware, window, method, stage and progress counts; a paused rollout shows why with
 * a Resume button; cancel asks first (it cannot be undone); the per-device results open in a drawer.
 * Cards, not a table: a phone shows every field without scrolling sideways.
 */
import { Suspense, lazy, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Col, Empty, Flex, Input, Pagination, Progress, Row, Select, Space, Tag, Typography } from 'antd';
import { EditOutlined, PlusOutlined, StopOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FIRMWARE_TYPES, STRATEGY_STATUS } from '@sunwatch/protocol';
import { notice, showApiError } from '../../../app/notify';
import { ListStates } from '../../../components/list';
import { useConfirm } from '../../shared/dialog/use-confirm';
import { useCancelStrategy, useResumeStrategy, useStrategies, type StrategyRow } from '../api/queries';
import { isDeviceType, tzLabel } from '../strategy-form';

const StrategyEditor = lazy(() => import('../components/StrategyEditor').then((m) => ({ default: m.StrategyEditor })));
const StrategyDevicesDrawer = lazy(() => import('../components/StrategyDevicesDrawer').then((m) => ({ default: m.StrategyDevicesDrawer })));

const STATUS_COLORS = ['blue', 'green', 'default', 'red'] as const;
type Editing = { open: false } | { open: true; row?: StrategyRow };

export default function StrategyPage() {
  const { t } = useTranslation();
  const confirm = useConfirm();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<number>();
  const [page, setPage] = useState({ current: 1, pageSize: 12 });
  const list = useStrategies({ page: page.current - 1, pagesize: page.pageSize, ...(search ? { search } : {}), ...(status !== undefined ? { status } : {}) });
  const cancel = useCancelStrategy();
  const resume = useResumeStrategy();
  const [editing, setEditingState] = useState<Editing>({ open: false });
  const [editorLoaded, setEditorLoaded] = useState(false);
  const [results, setResults] = useState<StrategyRow>();
  const setEditing = (next: Editing) => {
    if (next.open) setEditorLoaded(true);
    setEditingState(next);
  };

  const askCancel = (r: StrategyRow) =>
    confirm({
      title: t('strategies:cancelTitle', { name: r.name }),
      content: t('strategies:cancelText'),
      okText: t('strategies:cancelOk'),
      okButtonProps: { danger: true, ...{ 'data-testid': 'strategy-cancel-ok' } },
      cancelText: t('strategies:form.cancel'),
      onOk: async () => {
        try {
          await cancel.mutateAsync(r.code);
          void notice().success(t('strategies:cancelled', { name: r.name }));
        } catch (e) {
          showApiError(e);
        }
      },
    });
  const doResume = async (r: StrategyRow) => {
    try {
      await resume.mutateAsync(r.code);
      void notice().success(t('strategies:resumed', { name: r.name }));
    } catch (e) {
      showApiError(e);
    }
  };

  const rows = list.data?.strategy ?? [];
  const field = (label: string, value: ReactNode) => (
    <Flex gap={8} align="baseline" wrap>
      <Typography.Text type="secondary" style={{ minWidth: 110 }}>
        {label}
      </Typography.Text>
      <div style={{ flex: 1, minWidth: 0, wordBreak: 'break-word' }}>{value}</div>
    </Flex>
  );
  const typeKey = (id: number) => FIRMWARE_TYPES.find((x) => x.id === id)?.key ?? 'general';
  const filterText = (r: StrategyRow) => {
    const f = r.filter ?? {};
    const parts = (['devcode', 'plantid', 'loggerType', 'model', 'version', 'search'] as const)
      .filter((k) => f[k] !== undefined)
      .map((k) => `${t(`strategies:filter.${k === 'model' && isDeviceType(r.type) ? 'deviceModel' : k}`)}: ${String(f[k])}`);
    return parts.length > 0 ? parts.join(' · ') : t('strategies:filterAll');
  };

  return (
    <Card title={t('strategies:page.title')} data-testid="strategies-page">
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Flex wrap gap={12} justify="space-between" align="center">
          <Flex wrap gap={8} style={{ flex: 1, minWidth: 0 }}>
            <Input.Search
              allowClear
              placeholder={t('strategies:searchPlaceholder')}
              onSearch={(v) => {
                setSearch(v.trim());
                setPage((p) => ({ ...p, current: 1 }));
              }}
              style={{ width: 260, maxWidth: '100%' }}
              data-testid="strategy-search"
            />
            <Select
              allowClear
              placeholder={t('strategies:field.status')}
              value={status}
              onChange={(v?: number) => {
                setStatus(v);
                setPage((p) => ({ ...p, current: 1 }));
              }}
              options={[0, 1, 2, 3].map((s) => ({ value: s, label: t(`strategies:status.${s}`) }))}
              style={{ width: 160, maxWidth: '100%' }}
              data-testid="strategy-status-filter"
            />
          </Flex>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true })} data-testid="strategy-add">
            {t('strategies:add')}
          </Button>
        </Flex>
        <ListStates query={list} errorTitle={t('strategies:loadFailed')}>
          {list.isPending ? (
            <Card loading size="small" />
          ) : rows.length === 0 ? (
            <Empty description={t('strategies:empty')} />
          ) : (
            <Row gutter={[16, 16]} data-testid="strategy-list">
              {rows.map((r) => {
                const open = r.status === STRATEGY_STATUS.notStarted || r.status === STRATEGY_STATUS.inEffect;
                const done = r.success + r.failed;
                return (
                  <Col key={r.code} xs={24} lg={12} xxl={8}>
                    <Card
                      size="small"
                      data-testid="strategy-row"
                      data-code={r.code}
                      title={
                        <Typography.Text strong style={{ whiteSpace: 'normal' }} data-testid="strategy-row-name">
                          {r.name}
                        </Typography.Text>
                      }
                      extra={
                        <Tag color={STATUS_COLORS[r.status]} data-testid="strategy-row-status" data-status={r.status} style={{ marginInlineEnd: 0 }}>
                          {t(`strategies:status.${r.status}`)}
                        </Tag>
                      }
                      actions={[
                        <Button key="results" type="link" size="small" icon={<UnorderedListOutlined />} onClick={() => setResults(r)} data-testid="strategy-results">
                          {t('strategies:results')}
                        </Button>,
                        ...(r.status === STRATEGY_STATUS.notStarted
                          ? [
                              <Button key="edit" type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing({ open: true, row: r })} data-testid="strategy-edit">
                                {t('strategies:edit')}
                              </Button>,
                            ]
                          : []),
                        ...(open
                          ? [
                              <Button key="cancel" type="link" size="small" danger icon={<StopOutlined />} onClick={() => askCancel(r)} data-testid="strategy-cancel">
                                {t('strategies:cancel')}
                              </Button>,
                            ]
                          : []),
                      ]}
                    >
                      <Space direction="vertical" size={6} style={{ width: '100%' }}>
                        {r.paused && (
                          <Alert
                            type="warning"
                            showIcon
                            data-testid="strategy-paused"
                            message={t('strategies:paused')}
                            description={r.pauseReason}
                            action={
                              open ? (
                                <Button size="small" onClick={() => void doResume(r)} loading={resume.isPending} data-testid="strategy-resume">
                                  {t('strategies:resume')}
                                </Button>
                              ) : undefined
                            }
                          />
                        )}
                        {field(t('strategies:field.code'), r.code)}
                        {field(t('strategies:field.firmware'), `${r.firmware.name} ${r.firmware.version}`)}
                        {field(t('strategies:field.type'), `${t(`strategies:type.${typeKey(r.type)}`)} · ${r.baudRate}`)}
                        {field(t('strategies:field.method'), t(`strategies:method.${r.method}`))}
                        {r.filter &&
                          field(
                            t('strategies:field.filter'),
                            <Space wrap size={4} data-testid="strategy-row-filter">
                              <span>{filterText(r)}</span>
                              {!r.resolved && <Tag color="gold">{t('strategies:pending')}</Tag>}
                            </Space>,
                          )}
                        {field(t('strategies:field.window'), `${r.startTime.slice(0, 16)} → ${r.endTime.slice(0, 16)} (${tzLabel(r.timezone / 3600)})`)}
                        {field(
                          t('strategies:field.progress'),
                          <Space direction="vertical" size={0} style={{ width: '100%' }}>
                            <Typography.Text data-testid="strategy-row-counts">
                              {t('strategies:counts', { devices: r.deviceCount, upgraded: r.upgraded, success: r.success, failed: r.failed })}
                            </Typography.Text>
                            <Progress
                              percent={r.deviceCount ? Math.round((done * 100) / r.deviceCount) : 0}
                              success={{ percent: r.deviceCount ? Math.round((r.success * 100) / r.deviceCount) : 0 }}
                              size="small"
                            />
                          </Space>,
                        )}
                        {field(t('strategies:field.stage'), `${t(`strategies:stage.${Math.min(r.stage, 1)}`)} · ${t('strategies:canaryOf', { pct: r.canaryPercent, threshold: r.failureThresholdPercent })}`)}
                        {r.reminder && field(t('strategies:field.reminder'), r.reminder)}
                      </Space>
                    </Card>
                  </Col>
                );
              })}
            </Row>
          )}
        </ListStates>
        {(list.data?.total ?? 0) > 0 && (
          <Pagination
            size="small"
            current={page.current}
            pageSize={page.pageSize}
            total={list.data?.total ?? 0}
            showTotal={(n) => t('strategies:total', { n })}
            onChange={(current, pageSize) => setPage({ current: pageSize !== page.pageSize ? 1 : current, pageSize })}
          />
        )}
      </Space>
      {editorLoaded && (
        <Suspense fallback={null}>
          <StrategyEditor open={editing.open} row={editing.open ? editing.row : undefined} onClose={() => setEditing({ open: false })} />
        </Suspense>
      )}
      {results && (
        <Suspense fallback={null}>
          <StrategyDevicesDrawer row={results} onClose={() => setResults(undefined)} />
        </Suspense>
      )}
    </Card>
  );
}
