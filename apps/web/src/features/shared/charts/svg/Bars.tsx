/**
 * A column chart (e.g. alarms per day) as plain SVG, as wide as its container (a 360 px phone
 * included): a light value grid with locale-formatted ticks, one bar per label, the value above
 * each non-zero bar, and a tooltip (name, label, value) on hover or keyboard focus.
 */
import { useState } from 'react';
import { formatNumber } from '../format';
import { barRects, niceTicks } from './geometry';
import { useWidth } from './useWidth';

const PAD = { top: 20, right: 8, bottom: 24, left: 32 };

export function Bars({
  labels,
  values,
  seriesName,
  locale,
  height = 220,
  color = '#fa8c16',
  integer = false,
  testId,
}: {
  labels: readonly string[];
  values: readonly number[];
  seriesName: string;
  locale: string;
  height?: number;
  color?: string;
  /** Counts: integer ticks, no decimals. */
  integer?: boolean;
  testId?: string;
}) {
  const [ref, width] = useWidth<HTMLDivElement>(320);
  const [active, setActive] = useState<number | undefined>(undefined);
  const digits = integer ? 0 : 2;
  const ticks = niceTicks(Math.max(0, ...values.filter(Number.isFinite)), 4, integer);
  const top = ticks.at(-1)!;
  const box = { x: PAD.left, y: PAD.top, width: Math.max(10, width - PAD.left - PAD.right), height: height - PAD.top - PAD.bottom };
  const bars = barRects(values, box, top);
  const y = (v: number) => box.y + box.height - (v / top) * box.height;
  const slot = box.width / Math.max(1, labels.length);
  // every label when there is room, else every second/third… one
  const every = Math.max(1, Math.ceil(44 / slot));
  const tip = active === undefined ? undefined : bars[active];
  return (
    <div ref={ref} data-testid={testId} style={{ position: 'relative', width: '100%', minWidth: 0 }}>
      <svg
        role="img"
        aria-label={`${seriesName}: ${labels.map((l, i) => `${l} ${formatNumber(values[i] ?? 0, locale, digits)}`).join(', ')}`}
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        style={{ display: 'block', fontSize: 11 }}
      >
        {ticks.map((t) => (
          <g key={t}>
            <line x1={box.x} x2={box.x + box.width} y1={y(t)} y2={y(t)} stroke="#e8e8e8" strokeDasharray={t === 0 ? undefined : '3 3'} />
            <text x={box.x - 6} y={y(t)} textAnchor="end" dominantBaseline="central" fill="currentColor" opacity={0.55}>
              {formatNumber(t, locale, digits)}
            </text>
          </g>
        ))}
        {bars.map((b) => (
          <g key={b.index}>
            {/* the whole slot reacts, so thin or zero bars can be hovered too */}
            <rect
              x={box.x + slot * b.index}
              y={box.y}
              width={slot}
              height={box.height}
              fill={active === b.index ? 'rgba(0,0,0,0.04)' : 'transparent'}
              tabIndex={0}
              aria-label={`${labels[b.index] ?? ''}: ${formatNumber(b.value, locale, digits)}`}
              onMouseEnter={() => setActive(b.index)}
              onMouseLeave={() => setActive(undefined)}
              onFocus={() => setActive(b.index)}
              onBlur={() => setActive(undefined)}
              style={{ outline: 'none' }}
            />
            <rect
              x={b.x}
              y={b.y}
              width={b.width}
              height={b.height}
              rx={Math.min(3, b.width / 4)}
              fill={color}
              pointerEvents="none"
              data-value={b.value}
              data-testid={testId ? `${testId}-bar` : undefined}
            />
            {b.value > 0 && (
              <text x={b.x + b.width / 2} y={b.y - 4} textAnchor="middle" fill="currentColor" fontWeight={500} pointerEvents="none">
                {formatNumber(b.value, locale, digits)}
              </text>
            )}
            {b.index % every === 0 && (
              <text
                x={box.x + slot * b.index + slot / 2}
                y={box.y + box.height + 16}
                textAnchor="middle"
                fill="currentColor"
                opacity={0.65}
                pointerEvents="none"
              >
                {labels[b.index]}
              </text>
            )}
          </g>
        ))}
      </svg>
      {tip && (
        <div
          role="tooltip"
          style={{
            position: 'absolute',
            left: Math.min(Math.max(0, tip.x + tip.width / 2 - 60), width - 120),
            top: Math.max(0, tip.y - 52),
            width: 120,
            padding: '4px 8px',
            background: 'rgba(0,0,0,0.78)',
            color: '#fff',
            borderRadius: 6,
            fontSize: 12,
            pointerEvents: 'none',
            textAlign: 'center',
          }}
        >
          <div>{labels[tip.index]}</div>
          <div>
            {seriesName}: <b>{formatNumber(tip.value, locale, digits)}</b>
          </div>
        </div>
      )}
    </div>
  );
}
