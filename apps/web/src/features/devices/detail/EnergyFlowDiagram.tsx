/**
 * SVG energy-flow diagram: PV, grid, battery, load (and generator when the device has
 * one) around the inverter hub. Moving dots show the direction; they move faster with more
 * power and fade out when a flow is idle (portal-screens.md §6).
 */
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../i18n';
import { useElementWidth } from '../../../components/responsive';
import { formatPower } from '../../shared/charts/format';
import { flowSpeed, nodeCaption, presentNodes, type FlowModel, type FlowNodeId } from './energy-flow';

type Point = { x: number; y: number };

/**
 * Geometry of the diagram. `wide`: the landscape layout of the desktop. `compact`: a portrait
 * layout for narrow containers (phones), with the label lines stacked (name, power, state) and
 * fonts chosen so that on a 360 px phone (about 270 px for the diagram) no text is under 12 px.
 */
interface FlowLayout {
  width: number;
  height: (generator: boolean) => number;
  maxWidth: number;
  pos: Record<FlowNodeId | 'hub', Point>;
  r: number;
  hub: { w: number; h: number };
  font: { name: number; value: number; hub: number };
  /** Power and state on one line (wide) or two (compact). */
  stacked: boolean;
}

const WIDE: FlowLayout = {
  width: 640,
  height: () => 460,
  maxWidth: 720,
  pos: {
    hub: { x: 320, y: 230 },
    pv: { x: 110, y: 100 },
    grid: { x: 530, y: 100 },
    battery: { x: 110, y: 360 },
    load: { x: 530, y: 360 },
    generator: { x: 320, y: 390 },
  },
  r: 44,
  hub: { w: 128, h: 80 },
  font: { name: 14, value: 13, hub: 13 },
  stacked: false,
};

const COMPACT: FlowLayout = {
  width: 280,
  height: (generator) => (generator ? 540 : 460),
  maxWidth: 420,
  pos: {
    hub: { x: 140, y: 230 },
    pv: { x: 50, y: 110 },
    grid: { x: 230, y: 110 },
    battery: { x: 50, y: 350 },
    load: { x: 230, y: 350 },
    generator: { x: 140, y: 435 },
  },
  r: 32,
  hub: { w: 100, h: 70 },
  font: { name: 15, value: 14, hub: 13 },
  stacked: true,
};

/** Below this container width the wide layout's labels would shrink under 12 px. */
export const COMPACT_BELOW_PX = 600;

const COLOR: Record<FlowNodeId, string> = {
  pv: '#f5a623',
  grid: '#1677ff',
  battery: '#52c41a',
  load: '#13c2c2',
  generator: '#8c6d46',
};

/** Line icons drawn around (0, 0), about 36 px wide (no emoji font needed). */
function Icon({ id, color }: { id: FlowNodeId; color: string }) {
  const common = { fill: 'none', stroke: color, strokeWidth: 2.5, strokeLinecap: 'round' as const, strokeLinejoin: 'round' as const };
  switch (id) {
    case 'pv':
      return (
        <g {...common}>
          <path d="M-16,8 L-10,-10 L16,-10 L10,8 Z" />
          <path d="M-13,-1 L13,-1 M-3,-10 L-6,8 M6,-10 L3,8" />
          <path d="M0,8 L0,16 M-7,16 L7,16" />
        </g>
      );
    case 'grid':
      return (
        <g {...common}>
          <path d="M-10,16 L0,-16 L10,16 M-14,-8 L14,-8 M-10,2 L10,2 M-6,4 L6,16 M6,4 L-6,16" />
        </g>
      );
    case 'battery':
      return (
        <g {...common}>
          <rect x={-16} y={-9} width={30} height={18} rx={3} />
          <path d="M16,-4 L18,-4 L18,4 L16,4" />
          <path d="M-9,0 L-3,0 M-6,-3 L-6,3 M4,0 L9,0" />
        </g>
      );
    case 'load':
      return (
        <g {...common}>
          <path d="M-16,0 L0,-14 L16,0 M-11,-4 L-11,14 L11,14 L11,-4" />
          <path d="M-3,14 L-3,5 L3,5 L3,14" />
        </g>
      );
    case 'generator':
      return (
        <g {...common}>
          <rect x={-16} y={-10} width={32} height={20} rx={3} />
          <path d="M2,-6 L-4,1 L1,1 L-2,7" />
        </g>
      );
  }
}

function edge(from: Point, to: Point, r1: number, r2: number) {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const len = Math.hypot(dx, dy);
  const ux = dx / len;
  const uy = dy / len;
  return { x1: from.x + ux * r1, y1: from.y + uy * r1, x2: to.x - ux * r2, y2: to.y - uy * r2 };
}

export function EnergyFlowDiagram({ model, nodes }: { model: FlowModel; nodes?: readonly FlowNodeId[] }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  // only the nodes the device has (a micro-inverter has no battery and no load)
  const ids = presentNodes(model, nodes);
  const soc = model.soc;
  const [box, boxWidth] = useElementWidth<SVGSVGElement>({ of: 'parent' });
  const L = boxWidth > 0 && boxWidth < COMPACT_BELOW_PX ? COMPACT : WIDE;
  const { pos: POS, r: R } = L;
  const height = L.height(ids.includes('generator'));

  return (
    <svg
      ref={box}
      viewBox={`0 0 ${L.width} ${height}`}
      role="img"
      aria-label={t('devices:flow.title')}
      data-testid="energy-flow"
      data-layout={L === COMPACT ? 'compact' : 'wide'}
      style={{ width: '100%', maxWidth: L.maxWidth, display: 'block', margin: '0 auto' }}
    >
      {ids.map((id) => {
        const n = model.nodes[id];
        const e = edge(POS[id], POS.hub, R + 4, L.hub.w / 2 - 2);
        const active = n.direction !== 'none';
        // Path from the source to the sink of the flow.
        const d = n.direction === 'out' ? `M${e.x2},${e.y2} L${e.x1},${e.y1}` : `M${e.x1},${e.y1} L${e.x2},${e.y2}`;
        const dur = `${flowSpeed(n.powerKw).toFixed(2)}s`;
        const width = active ? Math.min(8, 2.5 + Math.log10(1 + (n.powerKw ?? 0)) * 3) : 2;
        return (
          <g key={`edge-${id}`} data-testid={`flow-${id}`} data-direction={n.direction}>
            <path d={d} stroke={active ? COLOR[id] : '#d9d9d9'} strokeWidth={width} strokeLinecap="round" fill="none" opacity={active ? 0.55 : 1} strokeDasharray={active ? undefined : '6 6'} />
            {active &&
              [0, 1, 2].map((i) => (
                <circle key={i} r={5} fill={COLOR[id]}>
                  {/* a negative begin puts the dots along the path at once (not parked at 0,0 until they start) */}
                  <animateMotion dur={dur} begin={`${-(i * flowSpeed(n.powerKw)) / 3}s`} repeatCount="indefinite" path={d} />
                </circle>
              ))}
          </g>
        );
      })}
      <g>
        <rect x={POS.hub.x - L.hub.w / 2} y={POS.hub.y - L.hub.h / 2} width={L.hub.w} height={L.hub.h} rx={14} fill="#fff" stroke="#595959" strokeWidth={2} />
        <path
          d={`M${POS.hub.x - 14},${POS.hub.y - 14} L${POS.hub.x + 14},${POS.hub.y - 14} M${POS.hub.x + 8},${POS.hub.y - 20} L${POS.hub.x + 14},${POS.hub.y - 14} L${POS.hub.x + 8},${POS.hub.y - 8} M${POS.hub.x + 14},${POS.hub.y} L${POS.hub.x - 14},${POS.hub.y} M${POS.hub.x - 8},${POS.hub.y - 6} L${POS.hub.x - 14},${POS.hub.y} L${POS.hub.x - 8},${POS.hub.y + 6}`}
          fill="none"
          stroke="#595959"
          strokeWidth={2.5}
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <text x={POS.hub.x} y={POS.hub.y + 24} textAnchor="middle" fontSize={L.font.hub} fill="#595959">
          {t('devices:flow.inverter')}
        </text>
      </g>
      {ids.map((id) => {
        const n = model.nodes[id];
        const p = POS[id];
        const top = id === 'pv' || id === 'grid';
        const lines = L.stacked ? 3 : 2;
        // label block above the top nodes, below the others; 18 px per line
        const labelY = top ? p.y - R - 10 - 18 * (lines - 1) : p.y + R + 20;
        const caption = nodeCaption(
          n,
          (kw) => formatPower(kw, locale),
          (node, dir) => t(`devices:flow.state.${node}.${dir}`),
          t('devices:flow.connected'),
        );
        // compact layout: power on one line, the state on the next
        const captionLines = caption.split(' · ');
        return (
          <g key={`node-${id}`} opacity={n.present ? 1 : 0.45}>
            <circle cx={p.x} cy={p.y} r={R} fill="#fff" stroke={COLOR[id]} strokeWidth={3} />
            {id === 'battery' && soc !== undefined && (
              <>
                <clipPath id="sw-soc-clip">
                  <circle cx={p.x} cy={p.y} r={R - 3} />
                </clipPath>
                <rect
                  x={p.x - R}
                  y={p.y + R - (2 * R * Math.max(0, Math.min(100, soc))) / 100}
                  width={2 * R}
                  height={(2 * R * Math.max(0, Math.min(100, soc))) / 100}
                  fill={COLOR.battery}
                  opacity={0.25}
                  clipPath="url(#sw-soc-clip)"
                />
              </>
            )}
            <g transform={`translate(${p.x},${p.y + (id === 'battery' && soc !== undefined ? -8 : 0)})`}>
              <Icon id={id} color={COLOR[id]} />
            </g>
            {id === 'battery' && soc !== undefined && (
              <text x={p.x} y={p.y + R * 0.6} textAnchor="middle" fontSize={14} fontWeight={600} fill="#237804" data-testid="flow-soc">
                {Math.round(soc)}%
              </text>
            )}
            <text x={p.x} y={labelY} textAnchor="middle" fontSize={L.font.name} fontWeight={600} fill="#262626">
              {t(`devices:flow.nodes.${id}`)}
            </text>
            <text x={p.x} y={labelY + 18} textAnchor="middle" fontSize={L.font.value} fill="#595959" data-testid={`flow-caption-${id}`}>
              {L.stacked ? captionLines[0] : caption}
            </text>
            {L.stacked && captionLines[1] && (
              <text x={p.x} y={labelY + 36} textAnchor="middle" fontSize={L.font.value} fill="#595959">
                {captionLines[1]}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
