import type { DeviceDefinition } from './types.js';
import { DEVCODE_2341 } from './definitions/dc2341.js';
import { DEVCODE_2376 } from './definitions/dc2376.js';
import { DEVCODE_2428 } from './definitions/dc2428.js';
import { DEVCODE_5121 } from './definitions/sw5121.js';
import { DEVCODE_5122 } from './definitions/sw5122.js';
import { DEVCODE_5123 } from './definitions/sw5123.js';
import { DEVCODE_5124 } from './definitions/sw5124.js';
import { DEVCODE_5125 } from './definitions/sw5125.js';

/**
 * Every protocol definition Sunwatch ships. Devcodes:
 * - 2341, 2376, 2428: vendor devcodes modelled on shared/reference/devcodes;
 * - 5120–5199: Sunwatch's own range — 5121 three-phase grid-tie inverter, 5122 micro-inverter,
 *   5123 LiFePO4 battery/BMS, 5124 three-phase smart meter, 5125 environment monitor.
 * Validated by definitions.test.ts (DeviceDefinitionSchema).
 */
export const DEVICE_DEFINITIONS: readonly DeviceDefinition[] = [
  DEVCODE_2341,
  DEVCODE_2376,
  DEVCODE_2428,
  DEVCODE_5121,
  DEVCODE_5122,
  DEVCODE_5123,
  DEVCODE_5124,
  DEVCODE_5125,
];

/** Sunwatch's own devcode range; vendor devcodes stay outside it. */
export const SUNWATCH_DEVCODE_RANGE = { min: 5120, max: 5199 } as const;

const BY_DEVCODE = new Map<number, DeviceDefinition>(DEVICE_DEFINITIONS.map((d) => [d.devcode, d]));

export function getDefinition(devcode: number): DeviceDefinition | undefined {
  return BY_DEVCODE.get(devcode);
}

/** devtype → definitions of that devtype, in devcode order. */
export function definitionsByDevtype(): Map<number, DeviceDefinition[]> {
  const out = new Map<number, DeviceDefinition[]>();
  for (const d of [...DEVICE_DEFINITIONS].sort((a, b) => a.devcode - b.devcode)) {
    const list = out.get(d.devtype) ?? [];
    list.push(d);
    out.set(d.devtype, list);
  }
  return out;
}

/** Field lookup by id (cached per definition). */
const FIELD_INDEX = new WeakMap<DeviceDefinition, Map<string, DeviceDefinition['fields'][number]>>();
export function fieldIndex(def: DeviceDefinition): Map<string, DeviceDefinition['fields'][number]> {
  let m = FIELD_INDEX.get(def);
  if (!m) {
    m = new Map(def.fields.map((f) => [f.id, f]));
    FIELD_INDEX.set(def, m);
  }
  return m;
}
