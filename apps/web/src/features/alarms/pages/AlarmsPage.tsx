/**
 * The alarm page of every area (spec §2 "Alarms": /adminNew/alarm, /admin/alarm,
 * /generalNew/alarm, /general/alarm): the 7-day statistics, then tabs for the current (ongoing)
 * alarms, the history (ended alarms) and the account's filter rules. The lists are server-paged
 * with every filter in the address bar; accounts that may handle alarms mark one or many
 * processed. Viewers see everything read-only.
 */
import { lazy, Suspense, useState } from 'react';
import { Alert, Button, Card, Flex, Space, Tabs, Typography } from 'antd';
import { CheckOutlined, ExportOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ListStates, listPagination, tableLoading, useListState } from '../../../components/list';
import { ALARM_LIST_SPEC, PAGE_SIZES, alarmListParams, browserTz, type AlarmTab } from '../api/list-params';
import { useAlarmList } from '../api/queries';
import { AlarmFilters } from '../components/AlarmFilters';
import { AlarmStats } from '../components/AlarmStats';
import { AlarmTable } from '../components/AlarmTable';
import type { AlarmExportParams } from '../components/AlarmExportDialog';
import { useAlarmAbilities } from '../model/abilities';
import { offsetLabel } from '../model/vocabulary';

const HandleDialog = lazy(() => import('../components/HandleDialog'));
const RulesPanel = lazy(() => import('../components/RulesPanel'));
const AlarmExportDialog = lazy(() => import('../components/AlarmExportDialog'));

export default function AlarmsPage() {
  const { t } = useTranslation();
  const abilities = useAlarmAbilities();
  const [state, update] = useListState(ALARM_LIST_SPEC);
  const lists = state.tab !== 'rules';
  const params = alarmListParams(state, browserTz());
  const list = useAlarmList(params, lists);
  /** The filters of the export being followed (the list's, without paging). */
  const [exporting, setExporting] = useState<AlarmExportParams>();
  const rows = list.data?.warning ?? [];
  const [selected, setSelected] = useState<number[]>([]);
  const [handling, setHandling] = useState<number[]>();
  const visibleSelected = selected.filter((id) => rows.some((r) => r.id === id && !r.handle));

  const table = (
    <Flex vertical gap={12}>
      <AlarmFilters state={state} update={update} plants={abilities.plants} />
      <Flex wrap gap={8} justify="space-between" align="center">
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('alarms:tzNote', { tz: offsetLabel(browserTz()) })}
        </Typography.Text>
        <Space wrap>
          {abilities.handle && (
            <Button
              icon={<CheckOutlined />}
              disabled={visibleSelected.length === 0}
              onClick={() => setHandling(visibleSelected)}
              data-testid="alarm-handle-selected"
            >
              {t('alarms:handle.selected', { n: visibleSelected.length })}
            </Button>
          )}
          {abilities.export && (
            <Button
              icon={<ExportOutlined />}
              disabled={!list.data?.total}
              onClick={() => {
                const { page: _page, pagesize: _size, ...filters } = params;
                setExporting(filters);
              }}
              data-testid="alarm-export"
            >
              {t('alarms:export.button')}
            </Button>
          )}
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void list.refetch()}
            loading={list.isFetching}
            data-testid="alarm-refresh"
          >
            {t('alarms:refresh')}
          </Button>
        </Space>
      </Flex>
      <ListStates query={list} errorTitle={t('alarms:loadFailed')}>
        <div data-testid="alarm-list" data-total={list.data?.total ?? ''} data-fetching={list.isFetching ? 1 : 0}>
          <AlarmTable
            rows={rows}
            scope="fleet"
            loading={tableLoading(list)}
            emptyText={t(state.tab === 'history' ? 'alarms:emptyHistory' : 'alarms:empty')}
            owner={abilities.admin}
            ended={state.tab === 'history'}
            canHandle={abilities.handle}
            selected={visibleSelected}
            onSelect={setSelected}
            onHandle={setHandling}
            pagination={listPagination(state, list.data?.total ?? 0, update, {
              pageSizes: PAGE_SIZES,
              showTotal: (n) => t('alarms:total', { n }),
            })}
          />
        </div>
      </ListStates>
    </Flex>
  );

  return (
    <Flex vertical gap={12} data-testid="alarms-page">
      <AlarmStats />
      <Card title={t('alarms:title')}>
        {abilities.readOnly && (
          <Alert type="info" showIcon message={t('alarms:readOnly')} style={{ marginBottom: 12 }} />
        )}
        <Tabs
          activeKey={state.tab}
          onChange={(tab) => {
            setSelected([]);
            update({ tab: tab as AlarmTab });
          }}
          destroyOnHidden
          items={[
            {
              key: 'current',
              label: <span data-testid="alarm-tab-current">{t('alarms:tabs.current')}</span>,
              children: lists ? table : null,
            },
            {
              key: 'history',
              label: <span data-testid="alarm-tab-history">{t('alarms:tabs.history')}</span>,
              children: lists ? table : null,
            },
            {
              key: 'rules',
              label: <span data-testid="alarm-tab-rules">{t('alarms:tabs.rules')}</span>,
              children: (
                <Suspense fallback={null}>
                  <RulesPanel editable={abilities.rules} plants={abilities.plants} />
                </Suspense>
              ),
            },
          ]}
        />
      </Card>
      <Suspense fallback={null}>
        {exporting && <AlarmExportDialog params={exporting} onClose={() => setExporting(undefined)} />}
        {handling && (
          <HandleDialog ids={handling} onClose={() => setHandling(undefined)} onDone={() => setSelected([])} />
        )}
      </Suspense>
    </Flex>
  );
}
