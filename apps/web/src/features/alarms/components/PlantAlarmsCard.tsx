/**
 * The plant page's alarm card: the plant's 7-day statistics and its current (ongoing) alarms,
 * newest first, with a link to the area's alarm list filtered to the plant; accounts that may
 * handle alarms mark one processed from the card.
 */
import { lazy, Suspense, useState } from 'react';
import { Card, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { ListStates, tableLoading } from '../../../components/list';
import { plantAlarmsPathFrom } from '../../shared/alarms/paths';
import { useAlarmList } from '../api/queries';
import { useAlarmAbilities } from '../model/abilities';
import { AlarmStats } from './AlarmStats';
import { AlarmTable } from './AlarmTable';

const HandleDialog = lazy(() => import('./HandleDialog'));

export default function PlantAlarmsCard({ pid }: { pid: number }) {
  const { t } = useTranslation();
  const abilities = useAlarmAbilities();
  const [handling, setHandling] = useState<number[]>();
  const { pathname } = useLocation();
  const list = useAlarmList({ plantid: pid, state: 1, page: 0, pagesize: 5 });
  const all = plantAlarmsPathFrom(pathname, pid);
  const total = list.data?.total ?? 0;
  return (
    <Card
      title={t('alarms:plant.title')}
      size="small"
      data-testid="plant-alarm-card"
      extra={
        all && (
          <Link to={all} data-testid="plant-alarms-link">
            {t('alarms:plant.viewAll', { n: total })}
          </Link>
        )
      }
    >
      <Flex vertical gap={12}>
        <ListStates query={list} errorTitle={t('alarms:loadFailed')}>
          <AlarmTable
            rows={list.data?.warning ?? []}
            scope="plant"
            loading={tableLoading(list)}
            emptyText={t('alarms:plant.none')}
            pagination={false}
            canHandle={abilities.handle}
            onHandle={setHandling}
          />
        </ListStates>
        <AlarmStats plantid={pid} compact />
      </Flex>
      <Suspense fallback={null}>
        {handling && <HandleDialog ids={handling} onClose={() => setHandling(undefined)} />}
      </Suspense>
    </Card>
  );
}
