/**
 * The two small bars of a flow-card row: traffic used of the package's limit, and the validity
 * timeline (activation → expiry, today marked), coloured by the card's status.
 */
import { Progress, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GprsCollectorRow } from '@sunwatch/protocol';
import { CARD_BAR_COLORS, daysUntil, formatKb, usageBar, validityShare } from '../model';

export function UsageBar({ row, locale }: { row: GprsCollectorRow; locale: string }) {
  const { t } = useTranslation('flowCards');
  const { usedKb, limitKb, status } = row.gprs;
  const { pct, bar } = usageBar(usedKb, limitKb);
  const text =
    pct === null
      ? t('traffic.noLimit', { used: formatKb(usedKb, locale) })
      : t('traffic.of', { used: formatKb(usedKb, locale), limit: formatKb(limitKb, locale) });
  return (
    <div data-testid="card-usage" style={{ minWidth: 120 }}>
      <Typography.Text style={{ fontSize: 12 }}>{text}</Typography.Text>
      {pct !== null && (
        <Progress
          percent={bar}
          size="small"
          showInfo={false}
          strokeColor={
            pct >= 80 ? CARD_BAR_COLORS.warning : CARD_BAR_COLORS[status === 'unknown' ? 'unknown' : 'normal']
          }
          aria-label={t('traffic.pct', { pct })}
        />
      )}
    </div>
  );
}

export function ValidityBar({ row, now, locale }: { row: GprsCollectorRow; now: number; locale: string }) {
  const { t } = useTranslation('flowCards');
  const { expireAt, activated, expire, status } = row.gprs;
  if (!expireAt) {
    return (
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="card-validity">
        {t('validity.unknown')}
      </Typography.Text>
    );
  }
  const share = validityShare(row, now);
  const days = daysUntil(expireAt, now);
  // Localised and pluralised by the browser: "in 12 days", "today", "20 days ago".
  const left = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(days, 'day');
  const tip = `${activated ? t('validity.activated', { day: activated }) + ' · ' : ''}${t('validity.expires', { day: expire })}`;
  return (
    <Tooltip title={tip}>
      <div data-testid="card-validity" style={{ minWidth: 130 }}>
        <Typography.Text style={{ fontSize: 12 }}>
          {expire} · {left}
        </Typography.Text>
        <div
          role="img"
          aria-label={tip}
          style={{ position: 'relative', height: 6, borderRadius: 3, background: '#f0f0f0', marginTop: 4 }}
        >
          {share !== null && (
            <>
              <div
                style={{
                  position: 'absolute',
                  inset: 0,
                  width: `${share * 100}%`,
                  borderRadius: 3,
                  background: CARD_BAR_COLORS[status],
                }}
              />
              <div
                data-testid="card-validity-today"
                data-share={share.toFixed(3)}
                style={{
                  position: 'absolute',
                  top: -3,
                  left: `calc(${share * 100}% - 1px)`,
                  width: 2,
                  height: 12,
                  background: '#262626',
                }}
              />
            </>
          )}
        </div>
      </div>
    </Tooltip>
  );
}
