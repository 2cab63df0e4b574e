/** The key figures of a device (card, list cell, detail header): label and value per figure. */
import { Col, Row, Typography, type ColProps } from 'antd';
import type { DeviceFigureWire } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../../i18n';
import { figureId, figureLabel, formatFigure } from '../figures';

export function DeviceFigures({
  figures,
  variant,
  cols = { span: 12 },
}: {
  figures: readonly DeviceFigureWire[];
  /** `grid`: label above value, `cols` wide each (cards, detail); `inline`: one line each (list cells). */
  variant: 'grid' | 'inline';
  cols?: ColProps;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  if (variant === 'inline') {
    return (
      <div data-testid="device-figures">
        {figures.map((f) => (
          <div key={figureId(f)} data-figure={figureId(f)} style={{ whiteSpace: 'nowrap' }}>
            <Typography.Text type="secondary">{t(...figureLabel(f))}: </Typography.Text>
            <span data-testid="figure-value">{formatFigure(f, locale)}</span>
          </div>
        ))}
      </div>
    );
  }
  return (
    <Row gutter={[8, 8]} data-testid="device-figures">
      {figures.map((f) => (
        <Col key={figureId(f)} {...cols} data-figure={figureId(f)}>
          <Typography.Text type="secondary">{t(...figureLabel(f))}</Typography.Text>
          <div>
            <Typography.Text strong data-testid="figure-value">
              {formatFigure(f, locale)}
            </Typography.Text>
          </div>
        </Col>
      ))}
    </Row>
  );
}
