import type { DeviceDefinitionInput, EnergyFlowMap, FaultDef } from '../types.js';

/**
 * The energy-flow layout every reference answer has: the five nodes with one placeholder
 * item each (`"0"` without unit when the device has no such field), and the four extra
 * nodes empty. Definitions override the nodes they can fill.
 */
export const REFERENCE_FLOW: EnergyFlowMap = {
  bt_status: [
    { par: 'bt_battery_capacity', status: 'battery' },
    { par: 'battery_active_power', status: 'value' },
  ],
  pv_status: [{ par: 'pv_output_power', field: 'pv_output_power', unit: 'kW', status: 'pv' }],
  gd_status: [{ par: 'grid_active_power', status: 'grid' }],
  bc_status: [{ par: 'load_active_power', status: 'load' }],
  ol_status: [{ par: 'oil_output_power', status: 'generator' }],
  we_status: [{ par: 'wind_output_power', status: 'value' }],
  mi_status: [],
  mt_status: [],
  wp_status: [],
};

/** Energy flow of a device without any power node of its own (a BMS, a meter) starts from this. */
export const EMPTY_FLOW: EnergyFlowMap = {
  bt_status: [],
  pv_status: [],
  gd_status: [],
  bc_status: [],
  ol_status: [],
  we_status: [],
  mi_status: [],
  mt_status: [],
  wp_status: [],
};

/** The Sunwatch-only counters every reference devcode carries (internal fields, kWh). */
export const referenceEnergy: DeviceDefinitionInput['energy'] = {
  generated: 'energy_pv_total',
  used: 'energy_load_total',
  bought: 'energy_grid_import_total',
  charged: 'energy_battery_charge_total',
  discharged: 'energy_battery_discharge_total',
};

/**
 * Fault (field `fault_code`, codes 1–99) and warning (field `warning_bits`, bit i → 100 + i)
 * tables of the Voltronic-type off-grid inverters (2341, 2376, 2428).
 */
export const voltronicFaults: FaultDef[] = [
  { code: 1, level: 2, description: 'Fan is locked when inverter is off' },
  { code: 2, level: 2, description: 'Over temperature' },
  { code: 3, level: 2, description: 'Battery voltage is too high' },
  { code: 4, level: 2, description: 'Battery voltage is too low' },
  { code: 5, level: 2, description: 'Output short circuited or over temperature' },
  { code: 6, level: 2, description: 'Output voltage is too high' },
  { code: 7, level: 2, description: 'Overload time out' },
  { code: 8, level: 2, description: 'Bus voltage is too high' },
  { code: 9, level: 2, description: 'Bus soft start failed' },
  { code: 10, level: 1, description: 'PV over current' },
  { code: 11, level: 1, description: 'PV over voltage' },
  { code: 12, level: 1, description: 'DCDC over current' },
  { code: 13, level: 1, description: 'Battery discharge over current' },
  { code: 51, level: 2, description: 'Over current or surge' },
  { code: 52, level: 2, description: 'Bus voltage is too low' },
  { code: 53, level: 2, description: 'Inverter soft start failed' },
  { code: 55, level: 2, description: 'Over DC voltage in AC output' },
  { code: 57, level: 2, description: 'Current sensor failed' },
  { code: 58, level: 2, description: 'Output voltage is too low' },
  { code: 100, level: 0, description: 'Line fail' },
  { code: 101, level: 0, description: 'Fan is locked when inverter is on' },
  { code: 102, level: 0, description: 'Over temperature warning' },
  { code: 103, level: 0, description: 'Battery voltage is too high' },
  { code: 104, level: 0, description: 'Battery low alarm' },
  { code: 105, level: 0, description: 'Battery under shutdown' },
  { code: 106, level: 0, description: 'Overload' },
  { code: 107, level: 0, description: 'EEPROM fault' },
  { code: 108, level: 0, description: 'Power limit' },
  { code: 109, level: 0, description: 'PV voltage high' },
  { code: 110, level: 0, description: 'Battery open' },
  { code: 111, level: 0, description: 'Battery equalization' },
];

/**
 * Sunwatch-only fields of the three reference off-grid hybrids (2341, 2376, 2428): the lifetime
 * counters named by `referenceEnergy` and the fault/warning registers, starting at register `base`.
 */
export function offGridInternalFields(base: number): DeviceDefinitionInput['fields'] {
  return [
    {
      id: 'energy_pv_total',
      title: 'PV Energy Total',
      unit: 'kWh',
      internal: true,
      register: { address: base, words: 2 },
      scale: 0.1,
      decimals: 1,
    },
    {
      id: 'energy_load_total',
      title: 'Load Energy Total',
      unit: 'kWh',
      internal: true,
      register: { address: base + 2, words: 2 },
      scale: 0.1,
      decimals: 1,
    },
    {
      id: 'energy_grid_import_total',
      title: 'Grid Import Energy Total',
      unit: 'kWh',
      internal: true,
      register: { address: base + 4, words: 2 },
      scale: 0.1,
      decimals: 1,
    },
    {
      id: 'energy_battery_charge_total',
      title: 'Battery Charge Energy Total',
      unit: 'kWh',
      internal: true,
      register: { address: base + 6, words: 2 },
      scale: 0.1,
      decimals: 1,
    },
    {
      id: 'energy_battery_discharge_total',
      title: 'Battery Discharge Energy Total',
      unit: 'kWh',
      internal: true,
      register: { address: base + 8, words: 2 },
      scale: 0.1,
      decimals: 1,
    },
    {
      id: 'fault_code',
      title: 'Fault Code',
      internal: true,
      register: { address: base + 10, words: 1 },
      scale: 1,
      decimals: 0,
    },
    {
      id: 'warning_bits',
      title: 'Warning Bits',
      internal: true,
      register: { address: base + 11, words: 1 },
      scale: 1,
      decimals: 0,
    },
  ];
}
