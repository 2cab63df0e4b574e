import { z } from 'zod';

/**
 * Protocol definitions of devices (architecture.md §5): a devcode's register map, the
 * named fields with unit/scale/enum, how the vendor's device screens are built from them
 * (querySPDeviceLastData groups, chart fields, energy flow, key parameters), its alarm codes
 * and the control fields a user may write. Definitions are plain data, validated by
 * `DeviceDefinitionSchema` (see definitions.test.ts).
 *
 * Conventions
 * - Registers are 16-bit words, big-endian. A 2-word value has its HIGH word at `address`
 *   and its low word at `address + 1`.
 * - A field's value is `raw * scale`; `decimals` is how many decimals its wire string has
 *   (measured values cross the wire as strings, e.g. "230.7").
 * - Power sign conventions of `power` (Sunwatch's, not necessarily the vendor's):
 *   grid  + import (buying) / − export (selling);
 *   battery + discharge / − charge;
 *   pv, load, generator ≥ 0.
 *   A `PowerSource.sign` converts a field's own convention to these.
 */

/** Groups of querySPDeviceLastData: grid/mains, system, PV, battery, load/output (+ generator). */
export const FIELD_GROUPS = ['gd_', 'sy_', 'pv_', 'bt_', 'bc_', 'ol_'] as const;
export type FieldGroup = (typeof FIELD_GROUPS)[number];

export const DEVICE_KINDS = [
  'generation',
  'grid',
  'inverter',
  'battery',
  'consumption',
  'micro-inverter',
  'generator',
  'meter',
  'env-monitor',
] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

/** Wire devtype (wire-protocol.md §5). */
export const DEVTYPES = [512, 768, 1024, 1280, 1792, 2048, 2304] as const;

/** Spec §3 device types: 0 other energy storage, 1 off-grid, 2 inverter, 3 ES integrated. */
export const DEVICE_TYPE = { OTHER_STORAGE: 0, OFF_GRID: 1, INVERTER: 2, ES_INTEGRATED: 3 } as const;

const fieldId = z.string().regex(/^[a-z][a-z0-9_]*$/, 'field ids are lower snake case');
const intKey = z.string().regex(/^-?\d+$/, 'enum keys are integers');

export const RegisterSchema = z.strictObject({
  address: z.number().int().min(0).max(0xffff),
  words: z.union([z.literal(1), z.literal(2)]),
  /** Two's complement. */
  signed: z.boolean().optional(),
});
export type Register = z.infer<typeof RegisterSchema>;

export const ChartSchema = z.strictObject({
  order: z.number().int().min(0),
  /** `visable` on the wire; visible chart fields are also the queryDeviceParsEs list. */
  visible: z.boolean(),
  /** Chart label when it differs from the field title. */
  name: z.string().min(1).optional(),
  /** Chart unit when it differs (e.g. W field charted in kW; values are converted). */
  unit: z.string().min(1).optional(),
});
export type ChartSpec = z.infer<typeof ChartSchema>;

export const FieldSchema = z.strictObject({
  id: fieldId,
  /** English title exactly as the vendor shows it (typos included). */
  title: z.string().min(1),
  unit: z.string().min(1).optional(),
  /** Group of querySPDeviceLastData; absent → not one of the five panels. */
  group: z.enum(FIELD_GROUPS).optional(),
  /** Shown in querySPDeviceLastData (default true when a group is set). */
  lastData: z.boolean().optional(),
  /** Sunwatch-only field (energy counters, fault registers): never listed in vendor screens. */
  internal: z.boolean().optional(),
  register: RegisterSchema,
  /** value = raw × scale. */
  scale: z.number().positive(),
  decimals: z.number().int().min(0).max(6),
  /** raw value → label (values of enum fields are shown as labels). */
  enum: z.record(intKey, z.string().min(1)).optional(),
  /** Plausible range of the scaled value; outside → decode error and the value is dropped. */
  min: z.number().optional(),
  max: z.number().optional(),
  chart: ChartSchema.optional(),
});
export type FieldDef = z.infer<typeof FieldSchema>;

/** Cumulative kWh counters (field ids) used for the per-day rollups of architecture.md §5. */
export const EnergyCountersSchema = z.strictObject({
  generated: fieldId.optional(),
  charged: fieldId.optional(),
  discharged: fieldId.optional(),
  sold: fieldId.optional(),
  bought: fieldId.optional(),
  used: fieldId.optional(),
});
export type EnergyCounters = z.infer<typeof EnergyCountersSchema>;
export const ENERGY_COUNTERS = ['generated', 'charged', 'discharged', 'sold', 'bought', 'used'] as const;
export type EnergyCounterName = (typeof ENERGY_COUNTERS)[number];

/**
 * Where a power figure comes from, converted to W in Sunwatch's sign convention:
 * - `{field, sign?}`: the field's value (W or kW by its unit) × sign;
 * - `{voltage, current, currentNeg?, sign?}`: V × (I − Ineg) × sign, for devices that report
 *   separate charge/discharge currents but no power.
 */
export const PowerSourceSchema = z.union([
  z.strictObject({ field: fieldId, sign: z.union([z.literal(1), z.literal(-1)]).optional() }),
  z.strictObject({
    voltage: fieldId,
    current: fieldId,
    currentNeg: fieldId.optional(),
    sign: z.union([z.literal(1), z.literal(-1)]).optional(),
  }),
]);
export type PowerSource = z.infer<typeof PowerSourceSchema>;

export const POWER_NODES = ['pv', 'grid', 'battery', 'load', 'generator'] as const;
export type PowerNode = (typeof POWER_NODES)[number];
export const PowerSourcesSchema = z.strictObject({
  pv: PowerSourceSchema.optional(),
  grid: PowerSourceSchema.optional(),
  battery: PowerSourceSchema.optional(),
  load: PowerSourceSchema.optional(),
  generator: PowerSourceSchema.optional(),
});
export type PowerSources = z.infer<typeof PowerSourcesSchema>;

/**
 * How an energy-flow item's status (-1/0/1, portal-screens.md §6) is derived:
 * - `value`: sign of the item's own wire value (vendor convention of that field);
 * - `pv` / `generator`: 1 producing, 0 idle;
 * - `battery`: 1 discharging, −1 charging, 0 idle (from `power.battery`);
 * - `grid`: 1 importing, −1 exporting; 0 idle unless `presence` reads non-zero (mains present) → 1;
 * - `load`: −1 consuming, 0 idle.
 */
export const FLOW_STATUS_RULES = ['value', 'pv', 'battery', 'grid', 'load', 'generator'] as const;
export const FlowItemSchema = z.strictObject({
  par: z.string().min(1),
  /** Field the value comes from; absent → the vendor's placeholder `"0"` without unit. */
  field: fieldId.optional(),
  unit: z.string().min(1).optional(),
  status: z.enum(FLOW_STATUS_RULES),
  /** Field whose non-zero value means the node is live (grid voltage). */
  presence: fieldId.optional(),
});
export type FlowItem = z.infer<typeof FlowItemSchema>;

export const FLOW_NODES = [
  'bt_status',
  'pv_status',
  'gd_status',
  'bc_status',
  'ol_status',
  'we_status',
  'mi_status',
  'mt_status',
  'wp_status',
] as const;
export type FlowNode = (typeof FLOW_NODES)[number];
export const EnergyFlowSchema = z.strictObject(
  Object.fromEntries(FLOW_NODES.map((n) => [n, z.array(FlowItemSchema)])) as Record<
    FlowNode,
    z.ZodArray<typeof FlowItemSchema>
  >,
);
export type EnergyFlowMap = z.infer<typeof EnergyFlowSchema>;

/** Keys of querySPKeyParameters / querySPDeviceKeyParameterOneDay. */
export const KEY_PARAMETERS = [
  'PV_OUTPUT_POWER',
  'GRID_ACTIVE_POWER',
  'LOAD_ACTIVE_POWER',
  'BATTERY_ACTIVE_POWER',
  'BATTERY_VOLTAGE',
  'BATTERY_SOC',
] as const;
export type KeyParameter = (typeof KEY_PARAMETERS)[number];
export const KeyParameterSchema = z
  .strictObject({
    key: z.enum(KEY_PARAMETERS),
    /** A field, or one of the power figures (W, Sunwatch convention). */
    field: fieldId.optional(),
    power: z.enum(POWER_NODES).optional(),
    unit: z.string().min(1),
  })
  .refine((k) => (k.field === undefined) !== (k.power === undefined), 'exactly one of field / power');
export type KeyParameterDef = z.infer<typeof KeyParameterSchema>;

/** Alarm levels (wire-protocol.md §5): 0 warning, 1 error, 2 fault. */
export const FaultSchema = z.strictObject({
  code: z.number().int().min(0),
  level: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  description: z.string().min(1),
});
export type FaultDef = z.infer<typeof FaultSchema>;

/**
 * Which fields carry alarm codes: `code` → the field's value is the code (0 = none);
 * `bits` → bit i set means code `base + i`.
 */
export const AlarmSourceSchema = z.union([
  z.strictObject({ field: fieldId, mode: z.literal('code') }),
  z.strictObject({ field: fieldId, mode: z.literal('bits'), base: z.number().int().min(0) }),
]);
export type AlarmSource = z.infer<typeof AlarmSourceSchema>;

export const CtrlItemSchema = z.strictObject({ key: z.string().min(1), val: z.string().min(1) });
export type CtrlItem = z.infer<typeof CtrlItemSchema>;

const numRange = z.strictObject({ min: z.number(), max: z.number(), step: z.number().positive() });

/** A long item list generated from ranges: key `n.toFixed(decimals)`, val key + suffix. */
export const CtrlItemRangeSchema = z.strictObject({
  ranges: z.array(numRange).min(1),
  decimals: z.number().int().min(0).max(4),
  suffix: z.string(),
  /** Extra items placed before the generated ones (e.g. 2A before 10,20,…). */
  prefix: z.array(CtrlItemSchema).optional(),
});
export type CtrlItemRange = z.infer<typeof CtrlItemRangeSchema>;

export const ControlSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9_]*$/),
  name: z.string().min(1),
  unit: z.string().min(1).optional(),
  /** Shown as-is (e.g. "56.4~59.0V", even when the vendor wrote it backwards). */
  hint: z.string().min(1).optional(),
  item: z.array(CtrlItemSchema).min(1).optional(),
  itemRange: CtrlItemRangeSchema.optional(),
  /** Accepted values of a free numeric field (ranges of the hint). */
  ranges: z.array(numRange).min(1).optional(),
  /** `datetime`: "YYYY-MM-DD HH:MM:SS", written as 3 words (YY MM, DD hh, mm ss). */
  type: z.enum(['number', 'datetime']).optional(),
  register: z.strictObject({
    address: z.number().int().min(0).max(0xffff),
    words: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    signed: z.boolean().optional(),
  }),
  /** raw = value / scale (item keys are values: "220.0" with scale 0.1 writes 2200). */
  scale: z.number().positive(),
  /** Field (if any) that reads the setting back (queryDeviceCtrlValue). */
  readback: fieldId.optional(),
});
export type ControlDef = z.infer<typeof ControlSchema>;

/**
 * What a device is, as users name it (the device-info "Device type"): finer than `kind`, and
 * independent of the wire `deviceType` (a hybrid inverter is wire type 1 "off-grid").
 */
export const DEVICE_CATEGORIES = [
  'hybrid-inverter',
  'off-grid-inverter',
  'grid-tie-inverter',
  'micro-inverter',
  'battery',
  'meter',
  'env-monitor',
] as const;
export type DeviceCategory = (typeof DEVICE_CATEGORIES)[number];

/**
 * Semantics of fields that the generic screens (device cards, lists, detail figures) need and
 * cannot guess from a vendor title ("Battery Capacity" is the state of charge of 2341):
 * - `soc`: the battery's state of charge, in %;
 * - `panels`: the DC power of each PV input (panel) of a micro-inverter, in input order.
 * Power and energy semantics are `power` and `energy` of the definition.
 */
export const FieldRolesSchema = z.strictObject({
  soc: fieldId.optional(),
  panels: z.array(fieldId).min(1).optional(),
});
export type FieldRoles = z.infer<typeof FieldRolesSchema>;

export const DeviceDefinitionSchema = z
  .strictObject({
    devcode: z.number().int().min(1).max(0xffff),
    name: z.string().min(1),
    /** Wire brand code of webQueryDeviceEs / webQueryDeviceEnergyFlowEs. */
    brand: z.number().int().min(0),
    /** Maker shown to operators. */
    vendor: z.string().min(1),
    kind: z.enum(DEVICE_KINDS),
    category: z.enum(DEVICE_CATEGORIES),
    devtype: z.literal(DEVTYPES),
    deviceType: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
    /** Rated power in W (used by simulators and plausibility checks). */
    ratedPower: z.number().positive(),
    /** Where the definition comes from: a vendor reference capture or Sunwatch's own design. */
    origin: z.enum(['reference', 'sunwatch']),
    notes: z.string().optional(),
    fields: z.array(FieldSchema).min(1),
    energy: EnergyCountersSchema,
    power: PowerSourcesSchema,
    energyFlow: EnergyFlowSchema,
    roles: FieldRolesSchema.optional(),
    keyParameters: z.array(KeyParameterSchema),
    alarms: z.array(AlarmSourceSchema),
    faults: z.array(FaultSchema),
    controls: z.array(ControlSchema),
  })
  .superRefine((def, ctx) => {
    const issue = (message: string, path: (string | number)[]) => ctx.addIssue({ code: 'custom', message, path });
    const ids = new Map<string, FieldDef>();
    def.fields.forEach((f, i) => {
      if (ids.has(f.id)) issue(`duplicate field id ${f.id}`, ['fields', i, 'id']);
      ids.set(f.id, f);
      if (f.group && !f.id.startsWith(f.group)) issue(`${f.id} is not in group ${f.group}`, ['fields', i, 'group']);
      if (f.enum && f.decimals !== 0) issue(`enum field ${f.id} must have 0 decimals`, ['fields', i]);
      if (f.min !== undefined && f.max !== undefined && f.min > f.max) issue(`min > max`, ['fields', i]);
    });
    // Registers: no two fields share a word.
    const owner = new Map<number, string>();
    def.fields.forEach((f, i) => {
      for (let w = 0; w < f.register.words; w++) {
        const a = f.register.address + w;
        if (a > 0xffff) issue(`${f.id} runs past 0xFFFF`, ['fields', i, 'register']);
        const prev = owner.get(a);
        if (prev) issue(`${f.id} overlaps ${prev} at ${a}`, ['fields', i, 'register']);
        owner.set(a, f.id);
      }
    });
    const known = (id: string | undefined, path: (string | number)[]) => {
      if (id !== undefined && !ids.has(id)) issue(`unknown field ${id}`, path);
    };
    for (const name of ENERGY_COUNTERS) {
      const id = def.energy[name];
      known(id, ['energy', name]);
      const f = id ? ids.get(id) : undefined;
      if (f && f.unit !== 'kWh') issue(`energy counter ${id} must be in kWh`, ['energy', name]);
    }
    for (const node of POWER_NODES) {
      const src = def.power[node];
      if (!src) continue;
      if ('field' in src) known(src.field, ['power', node]);
      else {
        known(src.voltage, ['power', node]);
        known(src.current, ['power', node]);
        known(src.currentNeg, ['power', node]);
      }
    }
    for (const node of FLOW_NODES) {
      def.energyFlow[node].forEach((it, i) => {
        known(it.field, ['energyFlow', node, i, 'field']);
        known(it.presence, ['energyFlow', node, i, 'presence']);
      });
    }
    def.keyParameters.forEach((k, i) => known(k.field, ['keyParameters', i]));
    if (def.roles?.soc !== undefined) {
      known(def.roles.soc, ['roles', 'soc']);
      const f = ids.get(def.roles.soc);
      if (f && f.unit !== '%') issue(`soc field ${f.id} must be in %`, ['roles', 'soc']);
    }
    def.roles?.panels?.forEach((id, i) => {
      known(id, ['roles', 'panels', i]);
      const f = ids.get(id);
      if (f && f.unit !== 'W' && f.unit !== 'kW') issue(`panel power ${id} must be in W or kW`, ['roles', 'panels', i]);
    });
    def.alarms.forEach((a, i) => known(a.field, ['alarms', i]));
    const codes = new Set<number>();
    def.faults.forEach((f, i) => {
      if (codes.has(f.code)) issue(`duplicate fault code ${f.code}`, ['faults', i]);
      codes.add(f.code);
    });
    const ctrlIds = new Set<string>();
    const ctrlWords = new Map<number, string>();
    def.controls.forEach((c, i) => {
      if (ctrlIds.has(c.id)) issue(`duplicate control ${c.id}`, ['controls', i]);
      ctrlIds.add(c.id);
      if (c.item && c.itemRange) issue(`${c.id}: item and itemRange are exclusive`, ['controls', i]);
      known(c.readback, ['controls', i, 'readback']);
      for (let w = 0; w < c.register.words; w++) {
        const a = c.register.address + w;
        const prev = ctrlWords.get(a);
        if (prev) issue(`control ${c.id} overlaps ${prev} at ${a}`, ['controls', i, 'register']);
        ctrlWords.set(a, c.id);
        // A control may share its register with the field that reads it back, nothing else.
        const f = owner.get(a);
        if (f && f !== c.readback) issue(`control ${c.id} overlaps field ${f} at ${a}`, ['controls', i, 'register']);
      }
    });
  });

export type DeviceDefinition = z.infer<typeof DeviceDefinitionSchema>;
/** What definition modules are written as (checked by the schema test). */
export type DeviceDefinitionInput = z.input<typeof DeviceDefinitionSchema>;
