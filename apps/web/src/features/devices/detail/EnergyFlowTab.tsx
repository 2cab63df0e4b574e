/** Energy flow: webQueryDeviceEnergyFlowEs as a live diagram (refreshed with the real-time data). */
import { Card, Descriptions, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIVE_REFRESH_MS, useEnergyFlow } from '../api/queries';
import type { DeviceTupleLike } from '../../shared/devices/paths';
import { QueryState } from './common';
import { EnergyFlowDiagram } from './EnergyFlowDiagram';
import { flowModel, flowNodesOf, presentNodes } from './energy-flow';
import { getDefinition } from '@sunwatch/protocol';

export function EnergyFlowTab({ device }: { device: DeviceTupleLike }) {
  const { t } = useTranslation();
  const q = useEnergyFlow(device);
  const def = getDefinition(Number(device.devcode));
  const nodes = def ? flowNodesOf(def) : undefined;
  return (
    <QueryState q={q} rows={8}>
      {(flow) => {
        const model = flowModel(flow);
        return (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Typography.Text type="secondary">
              {t('devices:realtime.lastUpdate', { time: flow.date || '--' })} ·{' '}
              {t('devices:realtime.autoRefresh', { seconds: LIVE_REFRESH_MS / 1000 })}
            </Typography.Text>
            <Card size="small">
              <EnergyFlowDiagram model={model} nodes={nodes} />
            </Card>
            <Descriptions size="small" column={{ xs: 1, md: 2, xl: 4 }}>
              {presentNodes(model, nodes).map((id) => (
                <Descriptions.Item key={id} label={t(`devices:flow.nodes.${id}`)}>
                  {model.nodes[id].direction !== 'none'
                    ? t(`devices:flow.state.${id}.${model.nodes[id].direction}`)
                    : model.nodes[id].connected
                      ? t('devices:flow.connected')
                      : t('devices:flow.idle')}
                </Descriptions.Item>
              ))}
            </Descriptions>
          </Space>
        );
      }}
    </QueryState>
  );
}
