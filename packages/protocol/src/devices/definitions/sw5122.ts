import type { DeviceDefinition } from '../types.js';
import { EMPTY_FLOW } from './common.js';

/**
 * Devcode 5122 (Sunwatch native range): 800 W dual-panel micro-inverter (relay
 * micro-inverter of spec §3), polled through its gateway. Registers: 0x0000 status, 0x0010 PV,
 * 0x0020 AC, 0x0030 counters, controls at 0x0080.
 */
export const DEVCODE_5122: DeviceDefinition = {
  devcode: 5122,
  name: 'SW-MI800 micro-inverter',
  brand: 0,
  vendor: 'Sunwatch',
  kind: 'micro-inverter',
  devtype: 512,
  deviceType: 2,
  ratedPower: 800,
  origin: 'sunwatch',
  fields: [
    { id: 'gd_grid_voltage', title: 'Grid Voltage', unit: 'V', group: 'gd_', register: { address: 0x0020, words: 1 }, scale: 0.1, decimals: 1, chart: { order: 20, visible: true } },
    { id: 'gd_grid_frequency', title: 'Grid Frequency', unit: 'Hz', group: 'gd_', register: { address: 0x0021, words: 1 }, scale: 0.01, decimals: 2, min: 0, max: 70, chart: { order: 21, visible: false } },
    { id: 'gd_output_current', title: 'Output Current', unit: 'A', group: 'gd_', register: { address: 0x0022, words: 1 }, scale: 0.01, decimals: 2 },
    { id: 'gd_output_power', title: 'Output Power', unit: 'W', group: 'gd_', register: { address: 0x0023, words: 1 }, scale: 0.1, decimals: 1, chart: { order: 1, visible: true, unit: 'kW' } },
    { id: 'sy_status', title: 'Working State', group: 'sy_', register: { address: 0x0000, words: 1 }, scale: 1, decimals: 0, enum: { 0: 'Waiting', 1: 'Normal', 2: 'Derating', 3: 'Fault', 4: 'Off' } },
    { id: 'sy_temperature', title: 'Temperature', unit: '°C', group: 'sy_', register: { address: 0x0001, words: 1, signed: true }, scale: 0.1, decimals: 1, min: -40, max: 120, chart: { order: 30, visible: false } },
    { id: 'sy_fault_code', title: 'Fault Code', group: 'sy_', register: { address: 0x0002, words: 1 }, scale: 1, decimals: 0 },
    { id: 'sy_energy_today', title: 'Energy Today', unit: 'kWh', group: 'sy_', register: { address: 0x0030, words: 1 }, scale: 0.01, decimals: 2, chart: { order: 50, visible: false } },
    { id: 'sy_energy_total', title: 'Energy Total', unit: 'kWh', group: 'sy_', register: { address: 0x0031, words: 2 }, scale: 0.01, decimals: 2 },
    { id: 'pv_pv1_voltage', title: 'PV1 Voltage', unit: 'V', group: 'pv_', register: { address: 0x0010, words: 1 }, scale: 0.1, decimals: 1, chart: { order: 10, visible: true } },
    { id: 'pv_pv1_current', title: 'PV1 Current', unit: 'A', group: 'pv_', register: { address: 0x0011, words: 1 }, scale: 0.01, decimals: 2 },
    { id: 'pv_pv1_power', title: 'PV1 Power', unit: 'W', group: 'pv_', register: { address: 0x0012, words: 1 }, scale: 0.1, decimals: 1, chart: { order: 12, visible: false } },
    { id: 'pv_pv2_voltage', title: 'PV2 Voltage', unit: 'V', group: 'pv_', register: { address: 0x0013, words: 1 }, scale: 0.1, decimals: 1, chart: { order: 13, visible: true } },
    { id: 'pv_pv2_current', title: 'PV2 Current', unit: 'A', group: 'pv_', register: { address: 0x0014, words: 1 }, scale: 0.01, decimals: 2 },
    { id: 'pv_pv2_power', title: 'PV2 Power', unit: 'W', group: 'pv_', register: { address: 0x0015, words: 1 }, scale: 0.1, decimals: 1, chart: { order: 15, visible: false } },
    { id: 'pv_output_power', title: 'PV Input Power', unit: 'W', group: 'pv_', register: { address: 0x0016, words: 1 }, scale: 0.1, decimals: 1, chart: { order: 0, visible: true, unit: 'kW' } },
  ],
  energy: { generated: 'sy_energy_total' },
  power: {
    pv: { field: 'pv_output_power' },
    grid: { field: 'gd_output_power', sign: -1 },
  },
  energyFlow: {
    ...EMPTY_FLOW,
    pv_status: [{ par: 'pv_output_power', field: 'pv_output_power', unit: 'kW', status: 'pv' }],
    gd_status: [{ par: 'grid_active_power', field: 'gd_output_power', unit: 'kW', status: 'grid' }],
  },
  keyParameters: [
    { key: 'PV_OUTPUT_POWER', power: 'pv', unit: 'kW' },
    { key: 'GRID_ACTIVE_POWER', power: 'grid', unit: 'kW' },
  ],
  alarms: [{ field: 'sy_fault_code', mode: 'code' }],
  faults: [
    { code: 1, level: 2, description: 'Grid over voltage' },
    { code: 2, level: 2, description: 'Grid under voltage' },
    { code: 3, level: 2, description: 'Grid frequency out of range' },
    { code: 4, level: 2, description: 'Anti-islanding trip' },
    { code: 5, level: 2, description: 'Over temperature' },
    { code: 6, level: 1, description: 'PV1 over voltage' },
    { code: 7, level: 1, description: 'PV2 over voltage' },
    { code: 8, level: 1, description: 'Gateway communication lost' },
    { code: 9, level: 0, description: 'PV1 input low' },
    { code: 10, level: 0, description: 'PV2 input low' },
    { code: 11, level: 0, description: 'Output power limited' },
  ],
  controls: [
    { id: 'sys_remote_switch', name: 'Remote On/Off', item: [{ key: '0', val: 'OFF' }, { key: '1', val: 'ON' }], register: { address: 0x0080, words: 1 }, scale: 1 },
    { id: 'grd_output_power_limit', name: 'Output Power Limit', unit: 'W', hint: '100~800W', ranges: [{ min: 100, max: 800, step: 10 }], register: { address: 0x0081, words: 1 }, scale: 1 },
    { id: 'grd_grid_code', name: 'Grid Code', item: [{ key: '0', val: 'EN 50549' }, { key: '1', val: 'VDE-AR-N 4105' }, { key: '2', val: 'G98' }, { key: '3', val: 'IEEE 1547' }], register: { address: 0x0082, words: 1 }, scale: 1 },
  ],
};
