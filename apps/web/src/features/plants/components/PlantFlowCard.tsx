/**
 * The plant-wide energy flow: production, grid, battery and consumption around the plant's
 * bus, each with its power and direction (plant-flow.ts). Plain CSS grid: no chart library.
 */
import { Card, Flex, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined, HomeOutlined, MinusOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { currentLocale } from '../../../i18n';
import { formatPercent, formatPower } from '../../shared/charts/format';
import type { PlantFlow, PlantFlowNode } from '../api/plant-flow';

const ICON: Record<PlantFlowNode, ReactNode> = {
  pv: <span aria-hidden>☀</span>,
  grid: <ThunderboltOutlined />,
  battery: <span aria-hidden>▮</span>,
  load: <HomeOutlined />,
};
const COLOR: Record<PlantFlowNode, string> = { pv: '#faad14', grid: '#1677ff', battery: '#52c41a', load: '#eb2f96' };

function Node({ id, flow }: { id: PlantFlowNode; flow: PlantFlow }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const n = flow.nodes[id];
  const arrow = n.direction === 'in' ? <ArrowDownOutlined /> : n.direction === 'out' ? <ArrowUpOutlined /> : <MinusOutlined />;
  return (
    <Flex
      vertical
      align="center"
      gap={2}
      data-testid={`plant-flow-${id}`}
      data-direction={n.direction}
      style={{ padding: 12, borderRadius: 8, border: `1px solid ${COLOR[id]}33`, background: `${COLOR[id]}0d`, minWidth: 0 }}
    >
      <span style={{ fontSize: 22, color: COLOR[id] }}>{ICON[id]}</span>
      <Typography.Text strong>{t(`plants:flow.${id}`)}</Typography.Text>
      <Typography.Text>{n.kw === undefined ? '--' : formatPower(n.kw, locale)}</Typography.Text>
      {/* an unmeasured power has no direction to tell (never "idle") */}
      {n.kw !== undefined && (
        <Typography.Text type="secondary" style={{ fontSize: 12, textAlign: 'center' }}>
          {arrow} {t(`plants:flow.state.${id}.${n.direction}`)}
        </Typography.Text>
      )}
      {id === 'battery' && flow.soc !== undefined && <Typography.Text type="secondary">SOC {formatPercent(flow.soc, locale)}</Typography.Text>}
    </Flex>
  );
}

export function PlantFlowCard({ flow }: { flow: PlantFlow }) {
  const { t } = useTranslation();
  const nodes = (['pv', 'grid', 'battery', 'load'] as const).filter((id) => flow.nodes[id].present);
  return (
    <Card size="small" title={t('plants:flow.title')} data-testid="plant-flow">
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(120px, 1fr))', gap: 12 }}>
        {nodes.map((id) => (
          <Node key={id} id={id} flow={flow} />
        ))}
      </div>
      {!flow.nodes.load.present && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('plants:flow.noMeter')}
        </Typography.Paragraph>
      )}
    </Card>
  );
}
