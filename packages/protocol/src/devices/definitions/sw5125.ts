import type { DeviceDefinition } from '../types.js';
import { DEVTYPE } from '../../roles.js';
import { EMPTY_FLOW } from './common.js';

/**
 * Devcode 5125 (Sunwatch native range): SW-ENV1 environment monitor (weather station) of a
 * plant — plane-of-array irradiance, module (back-of-panel) and ambient temperature, wind speed
 * and direction, and the day's irradiation. It generates nothing: no power, no energy counters;
 * queryPlantEnvMonitor and the plant's CURRENT_RADIANT / CURRENT_TEMP read it.
 * Registers: 0x0000 irradiance, 0x0001 temperatures, 0x0003 wind, 0x0005 irradiation,
 * 0x0010 status, controls at 0x0020.
 */
export const DEVCODE_5125: DeviceDefinition = {
  devcode: 5125,
  name: 'SW-ENV1 environment monitor',
  brand: 0,
  vendor: 'Sunwatch',
  kind: 'env-monitor',
  category: 'env-monitor',
  devtype: 768,
  deviceType: 0,
  ratedPower: 1,
  origin: 'sunwatch',
  fields: [
    {
      id: 'sy_irradiance',
      title: 'Irradiance',
      unit: 'W/m²',
      group: 'sy_',
      register: { address: 0x0000, words: 1 },
      scale: 1,
      decimals: 0,
      min: 0,
      max: 1800,
      chart: { order: 0, visible: true },
    },
    {
      id: 'sy_module_temperature',
      title: 'Module Temperature',
      unit: '°C',
      group: 'sy_',
      register: { address: 0x0001, words: 1, signed: true },
      scale: 0.1,
      decimals: 1,
      min: -40,
      max: 100,
      chart: { order: 1, visible: true },
    },
    {
      id: 'sy_ambient_temperature',
      title: 'Ambient Temperature',
      unit: '°C',
      group: 'sy_',
      register: { address: 0x0002, words: 1, signed: true },
      scale: 0.1,
      decimals: 1,
      min: -40,
      max: 70,
      chart: { order: 2, visible: true },
    },
    {
      id: 'sy_wind_speed',
      title: 'Wind Speed',
      unit: 'm/s',
      group: 'sy_',
      register: { address: 0x0003, words: 1 },
      scale: 0.1,
      decimals: 1,
      min: 0,
      max: 60,
      chart: { order: 3, visible: false },
    },
    {
      id: 'sy_wind_direction',
      title: 'Wind Direction',
      unit: '°',
      group: 'sy_',
      register: { address: 0x0004, words: 1 },
      scale: 1,
      decimals: 0,
      min: 0,
      max: 359,
    },
    {
      id: 'sy_irradiation_today',
      title: 'Daily Irradiation',
      unit: 'kWh/m²',
      group: 'sy_',
      register: { address: 0x0005, words: 1 },
      scale: 0.01,
      decimals: 2,
      min: 0,
      max: 15,
      chart: { order: 4, visible: false },
    },
    {
      id: 'sy_sensor_status',
      title: 'Sensor Status',
      group: 'sy_',
      register: { address: 0x0010, words: 1 },
      scale: 1,
      decimals: 0,
      enum: { 0: 'Normal', 1: 'Pyranometer Fault', 2: 'Temperature Probe Fault', 3: 'Anemometer Fault' },
    },
    {
      id: 'sy_alarm_bits',
      title: 'Alarm Code',
      group: 'sy_',
      register: { address: 0x0011, words: 1 },
      scale: 1,
      decimals: 0,
    },
  ],
  energy: {},
  power: {},
  energyFlow: EMPTY_FLOW,
  keyParameters: [],
  alarms: [{ field: 'sy_alarm_bits', mode: 'bits', base: 1 }],
  faults: [
    { code: 1, level: 0, description: 'Pyranometer out of range' },
    { code: 2, level: 0, description: 'Module temperature probe open' },
    { code: 3, level: 0, description: 'Ambient temperature probe open' },
    { code: 4, level: 0, description: 'Anemometer stalled' },
  ],
  controls: [
    {
      id: 'sys_irradiance_offset',
      name: 'Irradiance Calibration Offset',
      unit: 'W/m²',
      ranges: [{ min: -100, max: 100, step: 1 }],
      register: { address: 0x0020, words: 1, signed: true },
      scale: 1,
    },
  ],
};

/** The devtype of environment monitors (wire devtype 768). */
export const ENV_MONITOR_DEVTYPE = DEVTYPE.ENV_MONITOR;

/**
 * What each environment figure is, by field id: the one mapping queryPlantEnvMonitor and the
 * plant figures (CURRENT_RADIANT, CURRENT_TEMP) read, and the simulator writes.
 */
export const ENV_MONITOR_FIELDS = {
  irradiance: 'sy_irradiance',
  moduleTemp: 'sy_module_temperature',
  ambientTemp: 'sy_ambient_temperature',
  windSpeed: 'sy_wind_speed',
  windDirection: 'sy_wind_direction',
  irradiationToday: 'sy_irradiation_today',
  sensorStatus: 'sy_sensor_status',
} as const;
