import type { DeviceDefinition } from '../types.js';
import { REFERENCE_FLOW, referenceEnergy, voltronicFaults } from './common.js';

/**
 * Devcode 2428: 24/48 V off-grid solar charger-inverter (ASCII-coded settings: control item
 * keys such as "12336" are the two ASCII digits "00" of the setting as one word).
 * Field ids, titles, units, groups and chart settings follow shared/reference/devcodes/2428.
 * Registers: 0x0100 + position, internal counters at 0x0140, controls at 0x0200.
 */
export const DEVCODE_2428: DeviceDefinition = {
  devcode: 2428,
  name: 'Off-grid solar inverter 24/48 V',
  brand: 0,
  vendor: 'Voltronic-type OEM',
  kind: 'inverter',
  devtype: 2304,
  deviceType: 1,
  ratedPower: 3000,
  origin: 'reference',
  fields: [
    { id: 'gd_grid_voltage', title: 'Grid voltage', unit: 'V', group: 'gd_', register: { address: 256, words: 1 }, scale: 0.1, decimals: 2, chart: { order: 1000, visible: true } },
    { id: 'gd_grid_frequency', title: 'Grid frequency', unit: 'Hz', group: 'gd_', register: { address: 257, words: 1 }, scale: 0.01, decimals: 2, min: 0, max: 70, chart: { order: 1000, visible: false } },
    { id: 'pv_input_current', title: 'PV Input current for battery', unit: 'A', group: 'pv_', register: { address: 258, words: 1 }, scale: 0.1, decimals: 2, chart: { order: 1000, visible: true } },
    { id: 'pv_output_power', title: 'PV Charging power', unit: 'W', group: 'pv_', register: { address: 259, words: 1 }, scale: 1, decimals: 2 },
    { id: 'pv_voltage', title: 'PV Input voltage', unit: 'V', group: 'pv_', register: { address: 260, words: 1 }, scale: 0.1, decimals: 2, chart: { order: 1000, visible: false } },
    { id: 'bt_discharge_current', title: 'Battery discharge current', unit: 'A', group: 'bt_', register: { address: 261, words: 1 }, scale: 0.1, decimals: 2, chart: { order: 1000, visible: true } },
    { id: 'bt_battery_voltage', title: 'Battery voltage', unit: 'V', group: 'bt_', register: { address: 262, words: 1 }, scale: 0.1, decimals: 2, chart: { order: 1000, visible: true } },
    { id: 'bt_charging_current', title: 'Battery charging current', unit: 'A', group: 'bt_', register: { address: 263, words: 1 }, scale: 0.1, decimals: 2, chart: { order: 1000, visible: true } },
    { id: 'bt_battery_capacity', title: 'Battery capacity', unit: '%', group: 'bt_', register: { address: 264, words: 1 }, scale: 1, decimals: 2, min: 0, max: 100 },
    { id: 'bc_load_percent', title: 'Output load percent', unit: '%', group: 'bc_', register: { address: 265, words: 1 }, scale: 1, decimals: 2 },
    { id: 'bc_output_frequency', title: 'AC output frequency', unit: 'Hz', group: 'bc_', register: { address: 266, words: 1 }, scale: 0.01, decimals: 2, min: 0, max: 70 },
    { id: 'bc_output_voltage', title: 'AC output voltage', unit: 'V', group: 'bc_', register: { address: 267, words: 1 }, scale: 0.1, decimals: 2, chart: { order: 1000, visible: false } },
    { id: 'load_active_power', title: 'AC output active power', unit: 'W', lastData: false, register: { address: 268, words: 1 }, scale: 1, decimals: 0, chart: { order: 1000, visible: true, unit: 'kW' } },
    { id: 'energy_pv_total', title: 'PV Energy Total', unit: 'kWh', internal: true, register: { address: 320, words: 2 }, scale: 0.1, decimals: 1 },
    { id: 'energy_load_total', title: 'Load Energy Total', unit: 'kWh', internal: true, register: { address: 322, words: 2 }, scale: 0.1, decimals: 1 },
    { id: 'energy_grid_import_total', title: 'Grid Import Energy Total', unit: 'kWh', internal: true, register: { address: 324, words: 2 }, scale: 0.1, decimals: 1 },
    { id: 'energy_battery_charge_total', title: 'Battery Charge Energy Total', unit: 'kWh', internal: true, register: { address: 326, words: 2 }, scale: 0.1, decimals: 1 },
    { id: 'energy_battery_discharge_total', title: 'Battery Discharge Energy Total', unit: 'kWh', internal: true, register: { address: 328, words: 2 }, scale: 0.1, decimals: 1 },
    { id: 'fault_code', title: 'Fault Code', internal: true, register: { address: 330, words: 1 }, scale: 1, decimals: 0 },
    { id: 'warning_bits', title: 'Warning Bits', internal: true, register: { address: 331, words: 1 }, scale: 1, decimals: 0 },
  ],
  energy: referenceEnergy,
  power: {
    pv: { field: 'pv_output_power' },
    battery: { voltage: 'bt_battery_voltage', current: 'bt_discharge_current', currentNeg: 'bt_charging_current' },
    load: { field: 'load_active_power' },
  },
  energyFlow: {
    ...REFERENCE_FLOW,
    bt_status: [
      { par: 'bt_battery_capacity', field: 'bt_battery_capacity', unit: '%', status: 'battery' },
      { par: 'battery_active_power', status: 'value' },
    ],
    gd_status: [{ par: 'grid_active_power', status: 'grid', presence: 'gd_grid_voltage' }],
    bc_status: [{ par: 'load_active_power', field: 'load_active_power', unit: 'kW', status: 'load' }],
  },
  keyParameters: [
    { key: 'PV_OUTPUT_POWER', power: 'pv', unit: 'kW' },
    { key: 'LOAD_ACTIVE_POWER', power: 'load', unit: 'kW' },
    { key: 'BATTERY_ACTIVE_POWER', power: 'battery', unit: 'kW' },
    { key: 'BATTERY_VOLTAGE', field: 'bt_battery_voltage', unit: 'V' },
    { key: 'BATTERY_SOC', field: 'bt_battery_capacity', unit: '%' },
  ],
  alarms: [
    { field: 'fault_code', mode: 'code' },
    { field: 'warning_bits', mode: 'bits', base: 100 },
  ],
  faults: voltronicFaults,
  controls: [
    { id: 'bse_output_source_priority', name: 'Output source priority rating', item: [{ key: '12336', val: 'Utility first' }, { key: '12337', val: 'Solar first' }, { key: '12338', val: 'SBU first' }], register: { address: 512, words: 1 }, scale: 1 },
    { id: 'grd_ac_input_range', name: 'AC Input Range', item: [{ key: '12336', val: 'APL' }, { key: '12337', val: 'UPS' }], register: { address: 513, words: 1 }, scale: 1 },
    { id: 'grd_output_frequency', name: 'Output Frequency', unit: 'Hz', item: [{ key: '13616', val: '50.0' }, { key: '13872', val: '60.0' }], register: { address: 514, words: 1 }, scale: 1 },
    { id: 'bat_battery_type', name: 'Battery Type', item: [{ key: '12336', val: 'AGM' }, { key: '12337', val: 'FLD' }, { key: '12338', val: 'USER' }], register: { address: 515, words: 1 }, scale: 1 },
    { id: 'bat_battery_cut_off_voltage', name: 'Battery Cut-off Voltage', unit: 'V', hint: '21.0~24.0V 42.0~48.0V', ranges: [{ min: 21, max: 24, step: 0.1 }, { min: 42, max: 48, step: 0.1 }], register: { address: 516, words: 1 }, scale: 0.1 },
    { id: 'bat_charging_bulk_voltage', name: 'Bulk Charging Voltage', unit: 'V', hint: '25.0~31.5V 48.0~61.0V', ranges: [{ min: 25, max: 31.5, step: 0.1 }, { min: 48, max: 61, step: 0.1 }], register: { address: 517, words: 1 }, scale: 0.1 },
    { id: 'bat_charging_float_voltage', name: 'Float Charging Voltage', unit: 'V', hint: '25.0~31.5V 48.0~61.0V', ranges: [{ min: 25, max: 31.5, step: 0.1 }, { min: 48, max: 61, step: 0.1 }], register: { address: 518, words: 1 }, scale: 0.1 },
    { id: 'bat_max_charging_current', name: 'Max. Charging Current', unit: 'A', item: [{ key: '010', val: '10.0' }, { key: '020', val: '20.0' }, { key: '030', val: '30.0' }, { key: '040', val: '40.0' }, { key: '050', val: '50.0' }, { key: '060', val: '60.0' }, { key: '070', val: '70.0' }, { key: '080', val: '80.0' }, { key: '090', val: '90.0' }, { key: '100', val: '100.0' }, { key: '110', val: '110.0' }, { key: '120', val: '120.0' }], register: { address: 519, words: 1 }, scale: 1 },
    { id: 'bat_mac_charging_current', name: 'PV+AC max charging current (More than 100A)', unit: 'A', item: [{ key: '010', val: '10.0' }, { key: '020', val: '20.0' }, { key: '030', val: '30.0' }, { key: '040', val: '40.0' }, { key: '050', val: '50.0' }, { key: '060', val: '60.0' }, { key: '070', val: '70.0' }, { key: '080', val: '80.0' }, { key: '090', val: '90.0' }, { key: '100', val: '100.0' }, { key: '110', val: '110.0' }, { key: '120', val: '120.0' }], register: { address: 520, words: 1 }, scale: 1 },
    { id: 'bat_ac_charging_current', name: 'Max. AC Charging Current', unit: 'A', item: [{ key: '002', val: '2.0' }, { key: '010', val: '10.0' }, { key: '015', val: '15.0' }, { key: '020', val: '20.0' }, { key: '025', val: '25.0' }, { key: '030', val: '30.0' }, { key: '040', val: '40.0' }, { key: '050', val: '50.0' }, { key: '060', val: '60.0' }, { key: '070', val: '70.0' }, { key: '080', val: '80.0' }, { key: '090', val: '90.0' }, { key: '100', val: '100.0' }, { key: '110', val: '110.0' }, { key: '120', val: '120.0' }], register: { address: 521, words: 1 }, scale: 1 },
  ],
};
