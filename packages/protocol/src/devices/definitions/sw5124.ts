import type { DeviceDefinition } from '../types.js';
import { EMPTY_FLOW } from './common.js';

/**
 * Devcode 5124 (Sunwatch native range): three-phase smart energy meter at the grid
 * connection point (CT-connected). Active power is + import / − export, matching Sunwatch's
 * grid convention. Registers: 0x0000 voltages, 0x0010 currents, 0x0020 powers, 0x0040
 * counters, 0x0050 status, controls at 0x0060.
 */
export const DEVCODE_5124: DeviceDefinition = {
  devcode: 5124,
  name: 'SW-EM3 three-phase smart meter',
  brand: 0,
  vendor: 'Sunwatch',
  kind: 'meter',
  devtype: 1024,
  deviceType: 0,
  ratedPower: 50000,
  origin: 'sunwatch',
  fields: [
    { id: 'gd_l1_voltage', title: 'Voltage L1', unit: 'V', group: 'gd_', register: { address: 0x0000, words: 1 }, scale: 0.1, decimals: 1, chart: { order: 10, visible: true } },
    { id: 'gd_l2_voltage', title: 'Voltage L2', unit: 'V', group: 'gd_', register: { address: 0x0001, words: 1 }, scale: 0.1, decimals: 1, chart: { order: 11, visible: false } },
    { id: 'gd_l3_voltage', title: 'Voltage L3', unit: 'V', group: 'gd_', register: { address: 0x0002, words: 1 }, scale: 0.1, decimals: 1, chart: { order: 12, visible: false } },
    { id: 'gd_l1_current', title: 'Current L1', unit: 'A', group: 'gd_', register: { address: 0x0010, words: 1 }, scale: 0.01, decimals: 2 },
    { id: 'gd_l2_current', title: 'Current L2', unit: 'A', group: 'gd_', register: { address: 0x0011, words: 1 }, scale: 0.01, decimals: 2 },
    { id: 'gd_l3_current', title: 'Current L3', unit: 'A', group: 'gd_', register: { address: 0x0012, words: 1 }, scale: 0.01, decimals: 2 },
    { id: 'gd_l1_power', title: 'Active Power L1', unit: 'W', group: 'gd_', register: { address: 0x0020, words: 2, signed: true }, scale: 1, decimals: 0, chart: { order: 21, visible: false, unit: 'kW' } },
    { id: 'gd_l2_power', title: 'Active Power L2', unit: 'W', group: 'gd_', register: { address: 0x0022, words: 2, signed: true }, scale: 1, decimals: 0, chart: { order: 22, visible: false, unit: 'kW' } },
    { id: 'gd_l3_power', title: 'Active Power L3', unit: 'W', group: 'gd_', register: { address: 0x0024, words: 2, signed: true }, scale: 1, decimals: 0, chart: { order: 23, visible: false, unit: 'kW' } },
    { id: 'gd_active_power', title: 'Total Active Power', unit: 'W', group: 'gd_', register: { address: 0x0026, words: 2, signed: true }, scale: 1, decimals: 0, chart: { order: 0, visible: true, unit: 'kW' } },
    { id: 'gd_reactive_power', title: 'Total Reactive Power', unit: 'var', group: 'gd_', register: { address: 0x0028, words: 2, signed: true }, scale: 1, decimals: 0 },
    { id: 'gd_apparent_power', title: 'Total Apparent Power', unit: 'VA', group: 'gd_', register: { address: 0x002a, words: 2 }, scale: 1, decimals: 0 },
    { id: 'gd_power_factor', title: 'Power Factor', group: 'gd_', register: { address: 0x002c, words: 1, signed: true }, scale: 0.001, decimals: 3, min: -1, max: 1 },
    { id: 'gd_frequency', title: 'Frequency', unit: 'Hz', group: 'gd_', register: { address: 0x002d, words: 1 }, scale: 0.01, decimals: 2, min: 0, max: 70, chart: { order: 30, visible: false } },
    { id: 'gd_import_energy_total', title: 'Imported Energy', unit: 'kWh', group: 'gd_', register: { address: 0x0040, words: 2 }, scale: 0.01, decimals: 2, chart: { order: 40, visible: false } },
    { id: 'gd_export_energy_total', title: 'Exported Energy', unit: 'kWh', group: 'gd_', register: { address: 0x0042, words: 2 }, scale: 0.01, decimals: 2, chart: { order: 41, visible: false } },
    { id: 'sy_meter_status', title: 'Meter Status', group: 'sy_', register: { address: 0x0050, words: 1 }, scale: 1, decimals: 0, enum: { 0: 'Normal', 1: 'CT Reversed', 2: 'Phase Loss', 3: 'Wiring Error' } },
    { id: 'sy_ct_ratio', title: 'CT Ratio', group: 'sy_', register: { address: 0x0051, words: 1 }, scale: 1, decimals: 0 },
    { id: 'sy_alarm_bits', title: 'Alarm Code', group: 'sy_', register: { address: 0x0052, words: 1 }, scale: 1, decimals: 0 },
  ],
  energy: { bought: 'gd_import_energy_total', sold: 'gd_export_energy_total' },
  power: { grid: { field: 'gd_active_power' } },
  energyFlow: {
    ...EMPTY_FLOW,
    gd_status: [
      { par: 'grid_active_power', field: 'gd_active_power', unit: 'kW', status: 'grid', presence: 'gd_l1_voltage' },
    ],
  },
  keyParameters: [{ key: 'GRID_ACTIVE_POWER', power: 'grid', unit: 'kW' }],
  alarms: [{ field: 'sy_alarm_bits', mode: 'bits', base: 1 }],
  faults: [
    { code: 1, level: 1, description: 'Phase L1 voltage loss' },
    { code: 2, level: 1, description: 'Phase L2 voltage loss' },
    { code: 3, level: 1, description: 'Phase L3 voltage loss' },
    { code: 4, level: 0, description: 'CT L1 reversed' },
    { code: 5, level: 0, description: 'CT L2 reversed' },
    { code: 6, level: 0, description: 'CT L3 reversed' },
    { code: 7, level: 0, description: 'Voltage unbalance' },
    { code: 8, level: 0, description: 'Over current' },
    { code: 9, level: 2, description: 'Metering chip failure' },
    { code: 10, level: 2, description: 'Memory failure' },
  ],
  controls: [
    { id: 'sys_ct_ratio', name: 'CT Ratio', hint: '1~5000', ranges: [{ min: 1, max: 5000, step: 1 }], register: { address: 0x0051, words: 1 }, scale: 1, readback: 'sy_ct_ratio' },
    { id: 'grd_export_limit', name: 'Export Power Limit', unit: 'W', hint: '0~50000W', ranges: [{ min: 0, max: 50000, step: 100 }], register: { address: 0x0060, words: 2 }, scale: 1 },
    { id: 'sys_clear_energy', name: 'Clear Energy', hint: 'Clear all energy counters', item: [{ key: '170', val: 'Clear Energy' }], register: { address: 0x0062, words: 1 }, scale: 1 },
  ],
};
