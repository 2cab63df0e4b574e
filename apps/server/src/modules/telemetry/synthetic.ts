import { ENERGY_COUNTERS, type DeviceDefinition, type FieldDef } from '@sunwatch/protocol';

/**
 * Plausible values for every field of a definition (tests and the ingestion benchmark): enum
 * fields take a known state, ranged fields a value inside their range, energy counters the given
 * totals (kWh), alarm fields 0 unless given. Always decodes without errors.
 */
export function syntheticValues(
  def: DeviceDefinition,
  opts: {
    phase?: number;
    energy?: Partial<Record<(typeof ENERGY_COUNTERS)[number], number>>;
    overrides?: Record<string, number>;
  } = {},
): Record<string, number> {
  const phase = opts.phase ?? 0;
  const out: Record<string, number> = {};
  const counterIds = new Map<string, (typeof ENERGY_COUNTERS)[number]>();
  for (const k of ENERGY_COUNTERS) {
    const id = def.energy[k];
    if (id) counterIds.set(id, k);
  }
  const alarmIds = new Set(def.alarms.map((a) => a.field));
  def.fields.forEach((f: FieldDef, i) => {
    if (counterIds.has(f.id)) {
      out[f.id] = round(f, opts.energy?.[counterIds.get(f.id)!] ?? 0);
      return;
    }
    if (alarmIds.has(f.id)) {
      out[f.id] = 0;
      return;
    }
    if (f.enum) {
      const keys = Object.keys(f.enum).map(Number);
      out[f.id] = keys[(i + phase) % keys.length]!;
      return;
    }
    const bits = 16 * f.register.words;
    const rawMax = f.register.signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
    const lo = f.min ?? 0;
    const hi = Math.min(f.max ?? Math.min(rawMax * f.scale, 1000), rawMax * f.scale);
    const frac = ((i * 37 + phase * 11) % 100) / 100;
    out[f.id] = round(f, lo + (hi - lo) * frac);
  });
  return { ...out, ...opts.overrides };
}

function round(f: FieldDef, v: number): number {
  const raw = Math.round(v / f.scale);
  const d = String(f.scale).split('.')[1]?.length ?? 0;
  return Number((raw * f.scale).toFixed(d));
}
