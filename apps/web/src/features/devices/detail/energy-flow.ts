/**
 * Energy-flow model (portal-screens.md §6): webQueryDeviceEnergyFlowEs node arrays → the
 * diagram's nodes, each with its power (kW), whether it is present, and the direction of
 * its arrow relative to the inverter hub.
 *
 * Direction codes: PV 1 generating; battery 1 discharging / −1 charging (carried by the
 * `bt_battery_capacity` item when no power item has one); grid 1 import / −1 export;
 * load −1 consuming; generator 1 running. Without a status the sign of the power decides
 * (battery + discharge, grid + import), with a deadband so that tiny values do not flicker.
 */

import type { DeviceDefinition, FlowNode } from '@sunwatch/protocol';

export type FlowNodeId = 'pv' | 'grid' | 'battery' | 'load' | 'generator';

/** Arrow direction relative to the hub: `in` = power flows from the node into the hub. */
export type FlowDirection = 'in' | 'out' | 'none';

export interface FlowItemLike {
  par: string;
  val: string;
  unit?: string;
  status: number;
}

export type EnergyFlowLike = Partial<Record<string, unknown>> & {
  status?: number;
  date?: string;
};

export interface FlowNodeState {
  id: FlowNodeId;
  present: boolean;
  /** kW, absolute value; undefined when not measured. */
  powerKw?: number;
  direction: FlowDirection;
  /**
   * The node is live but its power is not measured (a hybrid inverter's grid: mains present,
   * no grid power field). No direction is drawn for it: "present" is not "importing".
   */
  connected?: boolean;
}

/** The text under a node: its power and direction, the direction alone, or "connected". */
export function nodeCaption(
  n: FlowNodeState,
  power: (kw: number) => string,
  state: (node: FlowNodeId, direction: Exclude<FlowDirection, 'none'>) => string,
  connected: string,
): string {
  const value = n.powerKw !== undefined ? power(n.powerKw) : undefined;
  if (n.direction === 'none') return value ?? (n.connected ? connected : '--');
  return value !== undefined ? `${value} · ${state(n.id, n.direction)}` : state(n.id, n.direction);
}

export interface FlowModel {
  nodes: Record<FlowNodeId, FlowNodeState>;
  /** Battery state of charge, %. */
  soc?: number;
  date?: string;
  status?: number;
}

/** Below this many kW a flow is idle (0.5 W, as the protocol's FLOW_DEADBAND_W). */
export const DEADBAND_KW = 0.0005;

const NODE_ARRAY: Record<FlowNodeId, string> = {
  pv: 'pv_status',
  grid: 'gd_status',
  battery: 'bt_status',
  load: 'bc_status',
  generator: 'ol_status',
};

/** Direction of each node for status code 1 and −1. */
const DIRECTION_OF_STATUS: Record<FlowNodeId, { 1: FlowDirection; [-1]: FlowDirection }> = {
  pv: { 1: 'in', [-1]: 'in' },
  generator: { 1: 'in', [-1]: 'in' },
  battery: { 1: 'in', [-1]: 'out' },
  grid: { 1: 'in', [-1]: 'out' },
  load: { 1: 'out', [-1]: 'out' },
};

function items(flow: EnergyFlowLike, key: string): FlowItemLike[] {
  const v = flow[key];
  return Array.isArray(v) ? (v as FlowItemLike[]) : [];
}

/** An item's value in kW (W and MW converted); undefined when not a power. */
export function itemKw(it: FlowItemLike): number | undefined {
  const n = Number(it.val);
  if (!Number.isFinite(n)) return undefined;
  switch ((it.unit ?? '').trim()) {
    case 'kW':
      return n;
    case 'W':
      return n / 1000;
    case 'MW':
      return n * 1000;
    default:
      return undefined;
  }
}

/** A real item (not the vendor's unit-less "0" placeholder). */
function isReal(it: FlowItemLike): boolean {
  return it.unit !== undefined && it.unit !== '';
}

/**
 * Direction of a node from its status code, else from the sign of its power.
 * `signedKw`: grid + import, battery + discharge, others ≥ 0.
 */
export function flowDirection(node: FlowNodeId, status: number | undefined, signedKw: number | undefined): FlowDirection {
  if (status === 1 || status === -1) return DIRECTION_OF_STATUS[node][status];
  if (status === 0) return 'none';
  if (signedKw === undefined || Math.abs(signedKw) <= DEADBAND_KW) return 'none';
  switch (node) {
    case 'pv':
    case 'generator':
      return signedKw > 0 ? 'in' : 'none';
    case 'load':
      return 'out';
    case 'battery':
    case 'grid':
      return signedKw > 0 ? 'in' : 'out';
  }
}

/** The diagram model of a webQueryDeviceEnergyFlowEs answer. */
export function flowModel(flow: EnergyFlowLike | undefined): FlowModel {
  const nodes = {} as Record<FlowNodeId, FlowNodeState>;
  let soc: number | undefined;
  for (const id of Object.keys(NODE_ARRAY) as FlowNodeId[]) {
    const list = flow ? items(flow, NODE_ARRAY[id]) : [];
    const real = list.filter(isReal);
    if (id === 'battery') {
      const capacity = real.find((i) => i.unit === '%');
      if (capacity) soc = Number(capacity.val);
    }
    const powerItem = real.find((i) => itemKw(i) !== undefined);
    const signedKw = powerItem ? itemKw(powerItem) : undefined;
    // The status that counts: a power item's own, else any non-zero status of the node
    // (the battery's sits on bt_battery_capacity).
    const statusItem = [powerItem, ...list].find((i) => i && i.status !== 0) ?? powerItem ?? list[0];
    const status = statusItem?.status;
    const active = status !== undefined && status !== 0;
    // The grid's status without a grid power is mains presence, not a direction of flow.
    const unmeasuredGrid = id === 'grid' && signedKw === undefined;
    nodes[id] = {
      id,
      present: real.length > 0 || active,
      powerKw: signedKw === undefined ? undefined : Math.abs(signedKw),
      direction: (real.length > 0 || active) && !unmeasuredGrid ? flowDirection(id, status, signedKw) : 'none',
      ...(unmeasuredGrid && active ? { connected: true } : {}),
    };
  }
  return {
    nodes,
    soc: soc !== undefined && Number.isFinite(soc) ? soc : undefined,
    date: flow?.date,
    status: flow?.status,
  };
}

const DIAGRAM_ORDER: readonly FlowNodeId[] = ['pv', 'grid', 'battery', 'load', 'generator'];

/**
 * The nodes a devcode has: those whose energy-flow items read a field (a value, or the presence
 * of mains). The vendor's placeholders ("0" without a field: a 2341's generator) and empty node
 * lists (a micro-inverter's battery and load) are nodes it does not have.
 */
export function flowNodesOf(def: Pick<DeviceDefinition, 'energyFlow'>): FlowNodeId[] {
  return DIAGRAM_ORDER.filter((id) =>
    def.energyFlow[NODE_ARRAY[id] as FlowNode].some((it) => it.field !== undefined || it.presence !== undefined),
  );
}

/**
 * The nodes to draw, in diagram order: the devcode's own (`flowNodesOf`, drawn even while idle —
 * a hybrid's grid during a mains loss), else, for an unknown devcode, those live in the answer.
 */
export function presentNodes(model: FlowModel, has?: readonly FlowNodeId[]): FlowNodeId[] {
  return DIAGRAM_ORDER.filter((id) => (has ? has.includes(id) : model.nodes[id].present));
}

/** Animation duration (s) of a flow: faster with more power. */
export function flowSpeed(kw: number | undefined): number {
  if (!kw || kw <= 0) return 2.4;
  return Math.max(0.6, 2.4 - Math.log10(1 + kw) * 1.2);
}
