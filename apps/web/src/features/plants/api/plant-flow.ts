/**
 * The plant-wide energy flow (issue 10 "the plant-wide energy flow"): production, consumption,
 * grid import/export and battery, from the plant figures the server computes
 * (queryPlantCurrentData CURRENT_POWER / BATTERY_SOC, webQueryPlants loadPower / gridPower /
 * batteryPower — the grid from the plant's meter, else from its hybrids). The battery's power is
 * what its batteries (or the inverters' battery ports) report, whether or not the grid exchange is
 * measured; only when no device reports it (an older server) is it the remainder of the balance
 * load = production + grid import + battery discharge (docs/web/figures.md), which needs both load
 * and grid. The battery node shows for a plant whose battery reports a state of charge or a power.
 */
import { toNumber } from '../../shared/charts/format';

export type PlantFlowNode = 'pv' | 'grid' | 'battery' | 'load';
/** `in`: power flows from the node into the plant's bus; `out`: from the bus to the node. */
export type PlantFlowDirection = 'in' | 'out' | 'none';

export interface PlantFlowNodeState {
  present: boolean;
  /** kW, absolute; undefined when not known. */
  kw?: number;
  direction: PlantFlowDirection;
}

export interface PlantFlow {
  nodes: Record<PlantFlowNode, PlantFlowNodeState>;
  /** Battery state of charge, %. */
  soc?: number;
}

/** Below 0.5 W a flow is idle (the protocol's FLOW_DEADBAND_W). */
export const FLOW_IDLE_KW = 0.0005;

export interface PlantFlowInput {
  /** Production, kW. */
  power?: string;
  /** Consumption, kW ("--" unknown). */
  load?: string;
  /** Grid at the plant's connection, kW: + import, − export ("--" unknown). */
  grid?: string;
  /** Battery power, kW: + discharge, − charge ("--" when no device reports it). */
  battery?: string;
  soc?: string;
}

const dir = (signed: number | undefined, positive: PlantFlowDirection, negative: PlantFlowDirection): PlantFlowDirection =>
  signed === undefined || Math.abs(signed) < FLOW_IDLE_KW ? 'none' : signed > 0 ? positive : negative;

export function plantFlow(input: PlantFlowInput): PlantFlow {
  const pv = toNumber(input.power);
  const load = toNumber(input.load);
  const grid = toNumber(input.grid);
  const soc = toNumber(input.soc);
  let battery = toNumber(input.battery);
  const hasBattery = soc !== undefined || battery !== undefined;
  if (battery === undefined && hasBattery && load !== undefined && grid !== undefined) battery = load - (pv ?? 0) - grid;
  if (battery !== undefined && Math.abs(battery) < FLOW_IDLE_KW) battery = 0;
  return {
    nodes: {
      pv: { present: true, kw: pv === undefined ? undefined : Math.max(0, pv), direction: dir(pv, 'in', 'none') },
      grid: { present: grid !== undefined, kw: grid === undefined ? undefined : Math.abs(grid), direction: dir(grid, 'in', 'out') },
      battery: { present: hasBattery, kw: battery === undefined ? undefined : Math.abs(battery), direction: dir(battery, 'in', 'out') },
      load: { present: load !== undefined, kw: load, direction: dir(load, 'out', 'none') },
    },
    ...(soc !== undefined ? { soc } : {}),
  };
}
