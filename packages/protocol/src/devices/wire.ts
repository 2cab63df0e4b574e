/**
 * Pure builders of the vendor's device answers (wire-protocol.md §6, Devices) from a definition
 * and a decoded sample. Field/chart/control texts are English in the definitions; pass
 * `translate` to localise them (the server's i18n decides the keys).
 */
import { controlItems } from './controls.js';
import { displayValue, type DecodedDevice } from './decoder.js';
import { convertUnit, powerOf } from './readings.js';
import { fieldIndex } from './registry.js';
import {
  FIELD_GROUPS,
  FLOW_NODES,
  type DeviceDefinition,
  type FieldDef,
  type FlowItem,
  type FlowNode,
} from './types.js';

export interface TextContext {
  devcode: number;
  /** Field or control id (for items: the control id). */
  id: string;
  kind: 'field' | 'chart' | 'control' | 'hint' | 'item';
}
export interface WireOptions {
  locale?: string;
  /** English text → localised text; identity when absent. */
  translate?: (english: string, ctx: TextContext, locale: string | undefined) => string;
}
type Opts = WireOptions | string | undefined;

function tr(opts: Opts, english: string, ctx: TextContext): string {
  if (typeof opts !== 'object' || !opts.translate) return english;
  return opts.translate(english, ctx, opts.locale);
}

type Sample = Pick<DecodedDevice, 'values' | 'labels'>;

/** Fixed 4-decimal wire number used by the parameter, energy-flow and curve answers ("0.9430"). */
export function format4(n: number): string {
  const s = n.toFixed(4);
  return /^-0\.0+$/.test(s) ? s.slice(1) : s;
}

export interface SPLastDataItem {
  id: string;
  par: string;
  val: string;
  unit?: string;
}
export interface SPLastData {
  gts: string;
  pars: Partial<Record<(typeof FIELD_GROUPS)[number], SPLastDataItem[]>>;
}

/** Fields shown in querySPDeviceLastData, in panel order. */
export function lastDataFields(def: DeviceDefinition): FieldDef[] {
  const shown = (f: FieldDef) => f.group !== undefined && f.lastData !== false && !f.internal;
  return FIELD_GROUPS.flatMap((g) => def.fields.filter((f) => f.group === g && shown(f)));
}

/**
 * querySPDeviceLastData `dat`: `{gts, pars:{gd_:[{id,par,val,unit?}],…}}`. Groups in the order
 * gd_, sy_, pv_, bt_, bc_ (ol_), empty groups left out; enum fields show their label; a field
 * without a value shows "--".
 */
export function toSPLastData(def: DeviceDefinition, decoded: Sample, gts: string, opts?: Opts): SPLastData {
  const pars: SPLastData['pars'] = {};
  for (const f of lastDataFields(def)) {
    const item: SPLastDataItem = {
      id: f.id,
      par: tr(opts, f.title, { devcode: def.devcode, id: f.id, kind: 'field' }),
      val: displayValue(f, decoded),
    };
    if (f.unit !== undefined) item.unit = f.unit;
    (pars[f.group!] ??= []).push(item);
  }
  return { gts, pars };
}

/**
 * queryDeviceLastData `dat`: a flat `[{title,val,unit?}]`, `dat[0]` the id and `dat[1]` the
 * timestamp, then every non-internal field (panel fields first, then the others).
 */
export function toLastDataList(
  def: DeviceDefinition,
  decoded: Sample,
  id: string | number,
  ts: string,
  opts?: Opts,
): Array<{ title: string; val: string; unit?: string }> {
  const panel = lastDataFields(def);
  const rest = def.fields.filter((f) => !f.internal && !panel.includes(f));
  const out: Array<{ title: string; val: string; unit?: string }> = [
    { title: 'id', val: String(id) },
    { title: 'Timestamp', val: ts },
  ];
  for (const f of [...panel, ...rest]) {
    const row: { title: string; val: string; unit?: string } = {
      title: tr(opts, f.title, { devcode: def.devcode, id: f.id, kind: 'field' }),
      val: displayValue(f, decoded),
    };
    if (f.unit !== undefined) row.unit = f.unit;
    out.push(row);
  }
  return out;
}

export interface EnergyFlowItem {
  par: string;
  val: string;
  unit?: string;
  status: -1 | 0 | 1;
}
export type EnergyFlow = { brand: number; status: number; date: string } & Record<FlowNode, EnergyFlowItem[]>;

export interface EnergyFlowMeta {
  /** Device status (0 normal, 1 offline, …). */
  status: number;
  /** "YYYY-MM-DD HH:MM:SS" in the plant's timezone. */
  date: string;
  /** Overrides the definition's brand code. */
  brand?: number;
}

/** Below this many watts a flow counts as idle (no animation). */
export const FLOW_DEADBAND_W = 0.5;

function sign(n: number | undefined, deadband = 0): -1 | 0 | 1 {
  if (n === undefined || !Number.isFinite(n) || Math.abs(n) <= deadband) return 0;
  return n > 0 ? 1 : -1;
}

function flowStatus(def: DeviceDefinition, d: Sample, it: FlowItem, shown: number | undefined): -1 | 0 | 1 {
  const power = (node: 'pv' | 'grid' | 'battery' | 'load' | 'generator') => powerOf(def, d, node);
  switch (it.status) {
    case 'value':
      return sign(shown !== undefined ? Number(format4(shown)) : undefined);
    case 'pv':
    case 'generator':
      return sign(power(it.status), FLOW_DEADBAND_W) === 1 ? 1 : 0;
    case 'battery':
      return sign(power('battery'), FLOW_DEADBAND_W);
    case 'load':
      return sign(power('load'), FLOW_DEADBAND_W) === 1 ? -1 : 0;
    case 'grid': {
      const s = sign(power('grid'), FLOW_DEADBAND_W);
      if (s !== 0) return s;
      const p = it.presence ? d.values[it.presence] : undefined;
      return p !== undefined && p > 0 ? 1 : 0;
    }
  }
}

/**
 * webQueryDeviceEnergyFlowEs `dat`. Values are 4-decimal strings in the item's unit (powers in
 * kW, SOC in %); an item without a field (or without data) is the vendor's placeholder `"0"`
 * with no unit. Status codes (portal-screens.md §6): PV 1 generating; battery 1 discharging /
 * −1 charging; grid 1 import / −1 export (1 also when mains is present without a power
 * reading); load −1 consuming; `value` items carry the sign of their own value.
 */
export function toEnergyFlow(def: DeviceDefinition, decoded: Sample, meta: EnergyFlowMeta): EnergyFlow {
  const index = fieldIndex(def);
  const flow = { brand: meta.brand ?? def.brand, status: meta.status, date: meta.date } as EnergyFlow;
  for (const node of FLOW_NODES) {
    flow[node] = def.energyFlow[node].map((it) => {
      const f = it.field ? index.get(it.field) : undefined;
      const raw = f ? decoded.values[f.id] : undefined;
      if (!f || raw === undefined) {
        return { par: it.par, val: '0', status: flowStatus(def, decoded, it, undefined) };
      }
      const unit = it.unit ?? f.unit;
      const shown = convertUnit(raw, f.unit, unit);
      const status = flowStatus(def, decoded, it, shown);
      // Key order as on the wire: par, val, unit, status.
      return unit !== undefined
        ? { par: it.par, val: format4(shown), unit, status }
        : { par: it.par, val: format4(shown), status };
    });
  }
  return flow;
}

/** Chart fields in the vendor's order: by `order`, then id. */
export function chartFields(def: DeviceDefinition): FieldDef[] {
  return def.fields
    .filter((f) => f.chart && !f.internal)
    .sort((a, b) => a.chart!.order - b.chart!.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function chartUnit(f: FieldDef): string {
  return f.chart?.unit ?? f.unit ?? '';
}

export interface ChartFieldWire {
  devcode: number;
  uid: number;
  optional: string;
  name: string;
  /** (sic) the unit. */
  uint: string;
  order: number;
  /** (sic) visible. */
  visable: boolean;
}

/** queryDeviceChartsFieldsEs `dat` (the spellings `uint` and `visable` are the vendor's). */
export function toChartsFields(def: DeviceDefinition, uid: number, opts?: Opts): ChartFieldWire[] {
  return chartFields(def).map((f) => ({
    devcode: def.devcode,
    uid,
    optional: f.id,
    name: tr(opts, f.chart!.name ?? f.title, { devcode: def.devcode, id: f.id, kind: 'chart' }),
    uint: chartUnit(f),
    order: f.chart!.order,
    visable: f.chart!.visible,
  }));
}

/** queryPlantDeviceChartsFieldsByType items: `{optional, name, uint, order}`. */
export function toChartsFieldsByType(
  def: DeviceDefinition,
  opts?: Opts,
): Array<{ optional: string; name: string; uint: string; order: number }> {
  return toChartsFields(def, 0, opts).map(({ optional, name, uint, order }) => ({ optional, name, uint, order }));
}

/** A chart field's value in its chart unit (W field charted in kW → kW). */
export function chartValue(
  def: DeviceDefinition,
  decoded: Pick<DecodedDevice, 'values'>,
  id: string,
): number | undefined {
  const f = fieldIndex(def).get(id);
  const v = decoded.values[id];
  return f && v !== undefined ? convertUnit(v, f.unit, chartUnit(f)) : undefined;
}

/**
 * queryDeviceParsEs `dat`: the visible chart fields sorted by id, `{par,name,val,unit}`, values
 * with 4 decimals in the chart unit ("--" without data, the label for enum fields).
 */
export function toDeviceParsEs(
  def: DeviceDefinition,
  decoded: Sample,
  opts?: Opts,
): { parameter: Array<{ par: string; name: string; val: string; unit: string }> } {
  const fields = chartFields(def)
    .filter((f) => f.chart!.visible)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    parameter: fields.map((f) => {
      const v = chartValue(def, decoded, f.id);
      const label = decoded.labels[f.id];
      return {
        par: f.id,
        name: tr(opts, f.chart!.name ?? f.title, { devcode: def.devcode, id: f.id, kind: 'chart' }),
        val: label ?? (v === undefined ? '--' : format4(v)),
        unit: chartUnit(f),
      };
    }),
  };
}

export interface CtrlFieldWire {
  id: string;
  name: string;
  unit?: string;
  hint?: string;
  item?: Array<{ key: string; val: string }>;
}

/** queryDeviceCtrlField `dat`: `{field:[{id,name,unit?,hint?,item?}]}` in definition order. */
export function toCtrlFields(def: DeviceDefinition, opts?: Opts): { field: CtrlFieldWire[] } {
  return {
    field: def.controls.map((c) => {
      const ctx = { devcode: def.devcode, id: c.id };
      const out: CtrlFieldWire = { id: c.id, name: tr(opts, c.name, { ...ctx, kind: 'control' }) };
      if (c.unit !== undefined) out.unit = c.unit;
      if (c.hint !== undefined) out.hint = tr(opts, c.hint, { ...ctx, kind: 'hint' });
      const items = controlItems(c);
      if (items) out.item = items.map((it) => ({ key: it.key, val: tr(opts, it.val, { ...ctx, kind: 'item' }) }));
      return out;
    }),
  };
}

/** querySPKeyParameters `dat`: `{keys:[…]}`. */
export function toKeyParameters(def: DeviceDefinition): { keys: string[] } {
  return { keys: def.keyParameters.map((k) => k.key) };
}
