/**
 * Key figures of a device: what its card, its list row and its detail page show, per device
 * type, derived from the definition only (`category`/`kind`, `power`, `energy`, `roles`):
 *
 * - inverters (hybrid, off-grid, grid-tie) and anything generating: power, energy today, total;
 * - micro-inverters: the same plus the power of each panel (`roles.panels`);
 * - batteries: state of charge (`roles.soc`), charge / discharge power, charged / discharged
 *   energy today and total;
 * - meters: import / export power, imported / exported energy today and total.
 *
 * The server computes the values once (`deviceFigures`) and sends them in every reply that
 * shows them, so the same figure is the same number everywhere.
 */
import type { DecodedDevice } from './decoder.js';
import { convertUnit, powerOf } from './readings.js';
import { fieldIndex } from './registry.js';
import type { DeviceDefinition, EnergyCounterName } from './types.js';

export const FIGURE_KEYS = [
  'power',
  'energyToday',
  'energyTotal',
  'soc',
  'chargePower',
  'dischargePower',
  'chargedToday',
  'chargedTotal',
  'dischargedToday',
  'dischargedTotal',
  'importPower',
  'exportPower',
  'importToday',
  'importTotal',
  'exportToday',
  'exportTotal',
  'panelPower',
] as const;
export type FigureKey = (typeof FIGURE_KEYS)[number];
export type FigureUnit = 'kW' | 'kWh' | '%';

/** One figure of a device: its key, unit, and (panel figures) the 1-based panel number. */
export interface FigureSpec {
  key: FigureKey;
  unit: FigureUnit;
  /** Panel number (1-based) of a `panelPower` figure. */
  panel?: number;
  /** What the value is: a live power / state (from the latest sample) or an energy period. */
  source:
    | { power: 'pv' | 'generator' | 'battery+' | 'battery-' | 'grid+' | 'grid-' }
    | { field: string }
    | { energy: EnergyCounterName; period: 'today' | 'total' };
}

const UNIT: Record<FigureKey, FigureUnit> = {
  power: 'kW',
  energyToday: 'kWh',
  energyTotal: 'kWh',
  soc: '%',
  chargePower: 'kW',
  dischargePower: 'kW',
  chargedToday: 'kWh',
  chargedTotal: 'kWh',
  dischargedToday: 'kWh',
  dischargedTotal: 'kWh',
  importPower: 'kW',
  exportPower: 'kW',
  importToday: 'kWh',
  importTotal: 'kWh',
  exportToday: 'kWh',
  exportTotal: 'kWh',
  panelPower: 'kW',
};

function spec(key: FigureKey, source: FigureSpec['source'], panel?: number): FigureSpec {
  return panel === undefined ? { key, unit: UNIT[key], source } : { key, unit: UNIT[key], source, panel };
}

/** The figures a device of this definition shows, in display order. */
export function figureSpecs(def: DeviceDefinition): FigureSpec[] {
  switch (def.category) {
    case 'battery': {
      const out: FigureSpec[] = [];
      if (def.roles?.soc) out.push(spec('soc', { field: def.roles.soc }));
      if (def.power.battery) {
        out.push(spec('chargePower', { power: 'battery-' }), spec('dischargePower', { power: 'battery+' }));
      }
      if (def.energy.charged) {
        out.push(
          spec('chargedToday', { energy: 'charged', period: 'today' }),
          spec('chargedTotal', { energy: 'charged', period: 'total' }),
        );
      }
      if (def.energy.discharged) {
        out.push(
          spec('dischargedToday', { energy: 'discharged', period: 'today' }),
          spec('dischargedTotal', { energy: 'discharged', period: 'total' }),
        );
      }
      return out;
    }
    case 'env-monitor':
      // A weather station has no power or energy figure; its readings are its fields
      // (queryPlantEnvMonitor, the plant's CURRENT_RADIANT / CURRENT_TEMP).
      return [];
    case 'meter': {
      const out: FigureSpec[] = [];
      if (def.power.grid) out.push(spec('importPower', { power: 'grid+' }), spec('exportPower', { power: 'grid-' }));
      if (def.energy.bought) {
        out.push(
          spec('importToday', { energy: 'bought', period: 'today' }),
          spec('importTotal', { energy: 'bought', period: 'total' }),
        );
      }
      if (def.energy.sold) {
        out.push(
          spec('exportToday', { energy: 'sold', period: 'today' }),
          spec('exportTotal', { energy: 'sold', period: 'total' }),
        );
      }
      return out;
    }
    default: {
      const out: FigureSpec[] = [
        spec('power', { power: def.power.pv ? 'pv' : 'generator' }),
        spec('energyToday', { energy: 'generated', period: 'today' }),
        spec('energyTotal', { energy: 'generated', period: 'total' }),
      ];
      def.roles?.panels?.forEach((field, i) => out.push(spec('panelPower', { field }, i + 1)));
      return out;
    }
  }
}

/** Inputs of `deviceFigures`: the latest sample (if any), whether the device is online, its energy. */
export interface FigureInputs {
  sample: Pick<DecodedDevice, 'values'> | undefined;
  /** Offline devices show 0 for live powers (their last sample is old); states (SOC) stay as last seen. */
  online: boolean;
  /** Today / lifetime total (kWh) per energy kind; a missing kind is 0. */
  energy: Partial<Record<EnergyCounterName, { today: number; total: number }>>;
}

export interface FigureValue extends Omit<FigureSpec, 'source'> {
  /** In `unit`; undefined when not measured (no sample, or the field missing from it). */
  value: number | undefined;
}

/** The values of a device's figures (`figureSpecs`), in their units. */
export function deviceFigures(def: DeviceDefinition, input: FigureInputs): FigureValue[] {
  return figureSpecs(def).map(({ source, ...rest }) => {
    let value: number | undefined;
    if ('energy' in source) {
      value = input.energy[source.energy]?.[source.period] ?? 0;
    } else if (!input.sample) {
      value = undefined;
    } else if ('field' in source) {
      const f = fieldIndex(def).get(source.field);
      const v = input.sample.values[source.field];
      value = v === undefined || !f ? undefined : convertUnit(v, f.unit, rest.unit);
      if (value !== undefined && rest.key === 'panelPower' && !input.online) value = 0;
    } else if (!input.online) {
      value = 0;
    } else {
      const node = source.power.replace(/[+-]$/, '') as 'pv' | 'generator' | 'battery' | 'grid';
      const w = powerOf(def, input.sample, node);
      if (w === undefined) value = undefined;
      else {
        const signed = source.power.endsWith('-') ? -w : w;
        // charge/discharge and import/export are the two halves of one signed power
        value = convertUnit(
          source.power.endsWith('+') || source.power.endsWith('-') ? Math.max(0, signed) : w,
          'W',
          'kW',
        );
      }
    }
    return { ...rest, value };
  });
}
