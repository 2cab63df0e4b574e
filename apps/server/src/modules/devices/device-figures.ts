import {
  deviceFigures,
  figureSpecs,
  type DeviceDefinition,
  type DeviceFigureWire,
  type EnergyCounterName,
} from '@sunwatch/protocol';
import { num4 } from '../../shared/wire-format.js';
import type { PeriodEnergy } from '../energy/energy.repository.js';
import type { DeviceTz, EnergyService } from '../energy/energy.service.js';
import { definitionOf, type Sample } from './device-sample.js';

/** Energy kinds the figures of these devices need (protocol `figureSpecs`). */
export function figureEnergyKinds(devcodes: Iterable<number>): EnergyCounterName[] {
  const kinds = new Set<EnergyCounterName>();
  for (const devcode of new Set(devcodes)) {
    for (const f of figureSpecs(definitionOf(devcode))) if ('energy' in f.source) kinds.add(f.source.energy);
  }
  return [...kinds];
}

/** Period energy per kind per device, for the kinds the devices' figures need. */
export async function figureEnergy(
  energy: Pick<EnergyService, 'periodByDevice'>,
  rows: ReadonlyArray<DeviceTz & { devcode: number }>,
): Promise<Map<EnergyCounterName, Map<number, PeriodEnergy>>> {
  const out = new Map<EnergyCounterName, Map<number, PeriodEnergy>>();
  for (const kind of figureEnergyKinds(rows.map((r) => r.devcode))) {
    const need = rows.filter((r) =>
      figureSpecs(definitionOf(r.devcode)).some((f) => 'energy' in f.source && f.source.energy === kind),
    );
    out.set(kind, await energy.periodByDevice(need, kind));
  }
  return out;
}

/** The key figures of one device on the wire (every reply that shows them uses this). */
export function figuresWire(
  def: DeviceDefinition,
  deviceId: number,
  sample: Sample | undefined,
  online: boolean,
  energy: ReadonlyMap<EnergyCounterName, ReadonlyMap<number, PeriodEnergy>>,
): DeviceFigureWire[] {
  const e: Partial<Record<EnergyCounterName, { today: number; total: number }>> = {};
  for (const [kind, m] of energy) {
    const p = m.get(deviceId);
    if (p) e[kind] = p;
  }
  return deviceFigures(def, { sample, online, energy: e }).map((f) => ({
    key: f.key,
    unit: f.unit,
    val: f.value === undefined ? '--' : num4(f.value),
    ...(f.panel !== undefined ? { panel: f.panel } : {}),
  }));
}
