import { ApiError, getDefinition, powerOf, type DecodedDevice, type DeviceDefinition } from '@sunwatch/protocol';
import { decodeSample } from '../telemetry/sample-codec.js';

export type Sample = Pick<DecodedDevice, 'values' | 'labels'>;

/** The device's protocol definition (err 353 when Sunwatch has none for the devcode). */
export function definitionOf(devcode: number): DeviceDefinition {
  const def = getDefinition(devcode);
  if (!def) throw new ApiError(353, String(devcode));
  return def;
}

/** Decodes a stored sample into values and enum labels (what the wire builders take). */
export function toSample(def: DeviceDefinition, data: Uint8Array): Sample {
  let values: Record<string, number>;
  try {
    values = decodeSample(def, data);
  } catch {
    values = {};
  }
  const labels: Record<string, string> = {};
  for (const f of def.fields) {
    if (!f.enum) continue;
    const v = values[f.id];
    if (v === undefined) continue;
    const label = f.enum[String(v)];
    if (label !== undefined) labels[f.id] = label;
  }
  return { values, labels };
}

/** Output (generation) power in W: PV, else generator; 0 for devices that do not generate. */
export function outputPowerW(def: DeviceDefinition, s: Pick<DecodedDevice, 'values'>): number {
  return powerOf(def, s, 'pv') ?? powerOf(def, s, 'generator') ?? 0;
}

/** Device status "offline" (a device is "communicating" when its status is not offline). */
export const OFFLINE = 1;
