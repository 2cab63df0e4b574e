/**
 * A donut of shares (e.g. devices by status) as plain SVG: the total in the centre, one ring
 * segment per non-zero slice, a legend with every value (readable without hovering), and the
 * hovered or focused slice's name, value and share in the centre. Keyboard: each segment is
 * focusable; screen readers get the chart's label and one line per slice.
 */
import { useState } from 'react';
import { bcp47, formatNumber } from '../format';
import { donutSegments } from './geometry';

export interface DonutSlice {
  name: string;
  value: number;
  color: string;
}

const SIZE = 160;
const OUTER = 76;
const INNER = 52;

export function Donut({
  slices,
  total,
  locale,
  ariaLabel,
  testId,
}: {
  slices: readonly DonutSlice[];
  /** The number shown in the centre (usually the sum of the slices). */
  total: number;
  locale: string;
  ariaLabel: string;
  testId?: string;
}) {
  const [active, setActive] = useState<number | undefined>(undefined);
  const segments = donutSegments(slices, (s) => s.value, { cx: SIZE / 2, cy: SIZE / 2, inner: INNER, outer: OUTER, gap: 0.02 });
  const sum = segments.reduce((s, x) => s + x.value, 0);
  const pct = (share: number) =>
    new Intl.NumberFormat(bcp47(locale), { style: 'percent', maximumFractionDigits: share < 0.1 ? 1 : 0 }).format(share);
  const shown = active === undefined ? undefined : segments[active];
  return (
    <div
      className="sw-donut"
      data-testid={testId}
      data-total={total}
      style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'center', gap: 16, minWidth: 0 }}
    >
      <svg
        role="img"
        aria-label={`${ariaLabel}: ${formatNumber(total, locale, 0)}`}
        viewBox={`0 0 ${SIZE} ${SIZE}`}
        width={SIZE}
        height={SIZE}
        style={{ flex: '0 0 auto', maxWidth: '100%', overflow: 'visible' }}
      >
        {segments.length === 0 && (
          <circle cx={SIZE / 2} cy={SIZE / 2} r={(OUTER + INNER) / 2} fill="none" stroke="#f0f0f0" strokeWidth={OUTER - INNER} />
        )}
        {segments.map((s, i) => (
          <path
            key={s.item.name}
            d={s.d}
            fill={s.item.color}
            fillRule="evenodd"
            tabIndex={0}
            role="presentation"
            data-value={s.value}
            opacity={active === undefined || active === i ? 1 : 0.45}
            style={{ cursor: 'default', outline: 'none', transition: 'opacity .15s' }}
            onMouseEnter={() => setActive(i)}
            onMouseLeave={() => setActive(undefined)}
            onFocus={() => setActive(i)}
            onBlur={() => setActive(undefined)}
          >
            <title>{`${s.item.name}: ${formatNumber(s.value, locale, 0)} (${pct(s.share)})`}</title>
          </path>
        ))}
        <text
          x={SIZE / 2}
          y={SIZE / 2}
          textAnchor="middle"
          dominantBaseline={shown ? 'auto' : 'central'}
          fontSize={shown ? 24 : 26}
          fontWeight={600}
          fill="currentColor"
          data-testid={testId ? `${testId}-centre` : undefined}
        >
          {formatNumber(shown ? shown.value : total, locale, 0)}
        </text>
        {shown && (
          <text x={SIZE / 2} y={SIZE / 2 + 18} textAnchor="middle" fontSize={12} fill="currentColor" opacity={0.65}>
            {pct(shown.share)}
          </text>
        )}
      </svg>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0, minWidth: 0, fontSize: 13, lineHeight: '22px' }}>
        {slices.map((s) => {
          const i = segments.findIndex((x) => x.item === s);
          return (
            <li
              key={s.name}
              data-testid={testId ? `${testId}-legend` : undefined}
              onMouseEnter={() => setActive(i >= 0 ? i : undefined)}
              onMouseLeave={() => setActive(undefined)}
              style={{ display: 'flex', alignItems: 'center', gap: 8, opacity: active === undefined || active === i ? 1 : 0.55 }}
            >
              <span aria-hidden style={{ width: 10, height: 10, borderRadius: 2, background: s.color, flex: '0 0 auto' }} />
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{s.name}</span>
              <span style={{ marginLeft: 'auto', paddingLeft: 8, fontVariantNumeric: 'tabular-nums', fontWeight: 500 }}>
                {formatNumber(s.value, locale, 0)}
              </span>
              <span style={{ width: 52, textAlign: 'right', opacity: 0.6, fontVariantNumeric: 'tabular-nums' }}>
                {sum > 0 ? pct(s.value / sum) : ''}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
