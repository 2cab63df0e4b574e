/** The week at a glance: weekdays × hours, each cell coloured by the time-of-use period covering it. */
import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TouPeriod } from '@sunwatch/protocol';
import { HOURS, KIND_COLORS, WEEK_ORDER, gridCell } from '../model';

export function WeekGrid({
  periods,
}: {
  periods: ReadonlyArray<Pick<TouPeriod, 'kind' | 'name' | 'weekdays' | 'from' | 'to'>>;
}) {
  const { t } = useTranslation('rates');
  return (
    <div style={{ overflowX: 'auto' }} data-testid="tou-grid">
      <table style={{ borderCollapse: 'collapse', fontSize: 11, minWidth: 320 }} aria-label={t('tou.grid')}>
        <thead>
          <tr>
            <th />
            {HOURS.map((h) => (
              <th key={h} style={{ fontWeight: 400, width: 14, textAlign: 'center' }}>
                {h % 6 === 0 ? h : ''}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {WEEK_ORDER.map((d) => (
            <tr key={d}>
              <th style={{ fontWeight: 400, paddingRight: 4, textAlign: 'left' }}>{t(`weekdays.${d}`)}</th>
              {HOURS.map((h) => {
                const i = gridCell(periods, d, h);
                const p = i >= 0 ? periods[i] : undefined;
                const label = p ? p.name || t(`tou.kinds.${p.kind}`) : t('tou.base');
                return (
                  <td key={h} style={{ padding: 0 }}>
                    <Tooltip title={`${t(`weekdays.${d}`)} ${h}:00–${h + 1}:00 · ${label}`}>
                      <div
                        data-testid="tou-cell"
                        data-period={i}
                        style={{
                          width: 12,
                          height: 14,
                          margin: 1,
                          borderRadius: 2,
                          background: p ? KIND_COLORS[p.kind] : 'rgba(0,0,0,0.06)',
                        }}
                      />
                    </Tooltip>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
