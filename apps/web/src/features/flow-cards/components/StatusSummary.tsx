/** The cards per status above the flow-card list; a click filters the list by that status. */
import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { CARD_STATUSES, type CardStatus } from '@sunwatch/protocol';
import { CARD_BAR_COLORS } from '../model';

export function StatusSummary({
  stat,
  active,
  onPick,
}: {
  stat: Partial<Record<CardStatus, number>> | undefined;
  active: CardStatus | '';
  onPick: (s: CardStatus | '') => void;
}) {
  const { t } = useTranslation('flowCards');
  return (
    <Row gutter={[8, 8]} data-testid="card-summary">
      {CARD_STATUSES.map((s) => (
        <Col key={s} xs={12} sm={8} lg={4}>
          <Card
            size="small"
            hoverable
            onClick={() => onPick(active === s ? '' : s)}
            data-testid={`summary-${s}`}
            aria-pressed={active === s}
            style={{
              borderTop: `3px solid ${CARD_BAR_COLORS[s]}`,
              background: active === s ? '#fafafa' : undefined,
            }}
          >
            <Statistic title={t(`status.${s}`)} value={stat?.[s] ?? 0} />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
