import type { DeviceDefinition } from '../types.js';
import { EMPTY_FLOW } from './common.js';

/**
 * Devcode 5123 (Sunwatch native range): 51.2 V 100 Ah LiFePO4 battery pack with BMS
 * (5.12 kWh, 16 cells). Current and power are + discharge / − charge (Sunwatch convention).
 * Registers: 0x0000 pack, 0x0020 cells, 0x0030 limits, 0x0040 counters, 0x0050 alarms;
 * the limit controls write the registers they are read back from.
 */
export const DEVCODE_5123: DeviceDefinition = {
  devcode: 5123,
  name: 'SW-LFP51-100 battery pack (BMS)',
  brand: 0,
  vendor: 'Sunwatch',
  kind: 'battery',
  devtype: 1792,
  deviceType: 0,
  ratedPower: 5120,
  origin: 'sunwatch',
  fields: [
    { id: 'bt_battery_voltage', title: 'Battery Voltage', unit: 'V', group: 'bt_', register: { address: 0x0000, words: 1 }, scale: 0.01, decimals: 2, min: 0, max: 65, chart: { order: 1, visible: true } },
    { id: 'bt_battery_current', title: 'Battery Current', unit: 'A', group: 'bt_', register: { address: 0x0001, words: 1, signed: true }, scale: 0.1, decimals: 1, chart: { order: 2, visible: true } },
    { id: 'bt_battery_power', title: 'Battery Power', unit: 'W', group: 'bt_', register: { address: 0x0002, words: 1, signed: true }, scale: 1, decimals: 0, chart: { order: 3, visible: true, unit: 'kW' } },
    { id: 'bt_battery_capacity', title: 'Battery Capacity', unit: '%', group: 'bt_', register: { address: 0x0003, words: 1 }, scale: 1, decimals: 0, min: 0, max: 100, chart: { order: 0, visible: true } },
    { id: 'bt_battery_soh', title: 'State of Health', unit: '%', group: 'bt_', register: { address: 0x0004, words: 1 }, scale: 1, decimals: 0, min: 0, max: 100 },
    { id: 'bt_remaining_capacity', title: 'Remaining Capacity', unit: 'Ah', group: 'bt_', register: { address: 0x0005, words: 1 }, scale: 0.1, decimals: 1 },
    { id: 'bt_full_capacity', title: 'Full Charge Capacity', unit: 'Ah', group: 'bt_', register: { address: 0x0006, words: 1 }, scale: 0.1, decimals: 1 },
    { id: 'bt_cycle_count', title: 'Cycle Count', group: 'bt_', register: { address: 0x0007, words: 1 }, scale: 1, decimals: 0 },
    { id: 'bt_battery_status', title: 'Battery Status', group: 'bt_', register: { address: 0x0008, words: 1 }, scale: 1, decimals: 0, enum: { 0: 'Idle', 1: 'Charging', 2: 'Discharging', 3: 'Sleep', 4: 'Protection' } },
    { id: 'bt_cell_voltage_max', title: 'Max Cell Voltage', unit: 'V', group: 'bt_', register: { address: 0x0020, words: 1 }, scale: 0.001, decimals: 3, min: 0, max: 5, chart: { order: 20, visible: false } },
    { id: 'bt_cell_voltage_min', title: 'Min Cell Voltage', unit: 'V', group: 'bt_', register: { address: 0x0021, words: 1 }, scale: 0.001, decimals: 3, min: 0, max: 5, chart: { order: 21, visible: false } },
    { id: 'bt_cell_temperature_max', title: 'Max Cell Temperature', unit: '°C', group: 'bt_', register: { address: 0x0022, words: 1, signed: true }, scale: 0.1, decimals: 1, min: -40, max: 100, chart: { order: 22, visible: false } },
    { id: 'bt_cell_temperature_min', title: 'Min Cell Temperature', unit: '°C', group: 'bt_', register: { address: 0x0023, words: 1, signed: true }, scale: 0.1, decimals: 1, min: -40, max: 100 },
    { id: 'bt_mos_temperature', title: 'MOS Temperature', unit: '°C', group: 'bt_', register: { address: 0x0024, words: 1, signed: true }, scale: 0.1, decimals: 1, min: -40, max: 150 },
    { id: 'bt_charge_voltage_limit', title: 'Charge Voltage Limit', unit: 'V', group: 'bt_', register: { address: 0x0030, words: 1 }, scale: 0.1, decimals: 1 },
    { id: 'bt_charge_current_limit', title: 'Charge Current Limit', unit: 'A', group: 'bt_', register: { address: 0x0031, words: 1 }, scale: 1, decimals: 0 },
    { id: 'bt_discharge_current_limit', title: 'Discharge Current Limit', unit: 'A', group: 'bt_', register: { address: 0x0032, words: 1 }, scale: 1, decimals: 0 },
    { id: 'bt_soc_low_cutoff', title: 'Discharge Cut-off SOC', unit: '%', group: 'bt_', register: { address: 0x0033, words: 1 }, scale: 1, decimals: 0, min: 0, max: 100 },
    { id: 'bt_energy_charged_total', title: 'Total Charged Energy', unit: 'kWh', group: 'bt_', register: { address: 0x0040, words: 2 }, scale: 0.1, decimals: 1 },
    { id: 'bt_energy_discharged_total', title: 'Total Discharged Energy', unit: 'kWh', group: 'bt_', register: { address: 0x0042, words: 2 }, scale: 0.1, decimals: 1 },
    { id: 'sy_firmware_version', title: 'BMS Firmware Version', group: 'sy_', register: { address: 0x0010, words: 1 }, scale: 1, decimals: 0 },
    { id: 'sy_cell_count', title: 'Cell Count', group: 'sy_', register: { address: 0x0011, words: 1 }, scale: 1, decimals: 0 },
    { id: 'sy_protection_bits', title: 'Protection Code', group: 'sy_', register: { address: 0x0050, words: 1 }, scale: 1, decimals: 0 },
    { id: 'sy_alarm_bits', title: 'Alarm Code', group: 'sy_', register: { address: 0x0051, words: 1 }, scale: 1, decimals: 0 },
  ],
  energy: { charged: 'bt_energy_charged_total', discharged: 'bt_energy_discharged_total' },
  power: { battery: { field: 'bt_battery_power' } },
  energyFlow: {
    ...EMPTY_FLOW,
    bt_status: [
      { par: 'bt_battery_capacity', field: 'bt_battery_capacity', unit: '%', status: 'battery' },
      { par: 'battery_active_power', field: 'bt_battery_power', unit: 'kW', status: 'value' },
    ],
  },
  keyParameters: [
    { key: 'BATTERY_ACTIVE_POWER', power: 'battery', unit: 'kW' },
    { key: 'BATTERY_VOLTAGE', field: 'bt_battery_voltage', unit: 'V' },
    { key: 'BATTERY_SOC', field: 'bt_battery_capacity', unit: '%' },
  ],
  alarms: [
    { field: 'sy_protection_bits', mode: 'bits', base: 1 },
    { field: 'sy_alarm_bits', mode: 'bits', base: 100 },
  ],
  faults: [
    { code: 1, level: 2, description: 'Cell over voltage protection' },
    { code: 2, level: 2, description: 'Cell under voltage protection' },
    { code: 3, level: 2, description: 'Pack over voltage protection' },
    { code: 4, level: 2, description: 'Pack under voltage protection' },
    { code: 5, level: 2, description: 'Charge over current protection' },
    { code: 6, level: 2, description: 'Discharge over current protection' },
    { code: 7, level: 2, description: 'Short circuit protection' },
    { code: 8, level: 2, description: 'Charge over temperature protection' },
    { code: 9, level: 2, description: 'Charge under temperature protection' },
    { code: 10, level: 2, description: 'Discharge over temperature protection' },
    { code: 11, level: 2, description: 'Discharge under temperature protection' },
    { code: 12, level: 2, description: 'MOS over temperature protection' },
    { code: 13, level: 1, description: 'Cell imbalance' },
    { code: 14, level: 1, description: 'Internal communication error' },
    { code: 15, level: 1, description: 'Precharge failed' },
    { code: 16, level: 1, description: 'Inverter communication lost' },
    { code: 100, level: 0, description: 'Cell voltage high' },
    { code: 101, level: 0, description: 'Cell voltage low' },
    { code: 102, level: 0, description: 'Temperature high' },
    { code: 103, level: 0, description: 'Temperature low' },
    { code: 104, level: 0, description: 'SOC low' },
    { code: 105, level: 0, description: 'Cell voltage difference high' },
  ],
  controls: [
    { id: 'bat_charge_current_limit', name: 'Max. Charging Current', unit: 'A', hint: '0~100A', ranges: [{ min: 0, max: 100, step: 1 }], register: { address: 0x0031, words: 1 }, scale: 1, readback: 'bt_charge_current_limit' },
    { id: 'bat_discharge_current_limit', name: 'Max. Discharging Current', unit: 'A', hint: '0~100A', ranges: [{ min: 0, max: 100, step: 1 }], register: { address: 0x0032, words: 1 }, scale: 1, readback: 'bt_discharge_current_limit' },
    { id: 'bat_soc_low_cutoff', name: 'Discharge Cut-off SOC', unit: '%', hint: '5~50%', ranges: [{ min: 5, max: 50, step: 1 }], register: { address: 0x0033, words: 1 }, scale: 1, readback: 'bt_soc_low_cutoff' },
    { id: 'sys_sleep', name: 'Enter Sleep Mode', item: [{ key: '1', val: 'Sleep' }], register: { address: 0x0060, words: 1 }, scale: 1 },
  ],
};
