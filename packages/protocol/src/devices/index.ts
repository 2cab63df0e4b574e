/** Device protocol definitions, the ingestion frame format, the decoder and the wire builders. */
export * from './types.js';
export * from './frame.js';
export * from './registry.js';
export * from './decoder.js';
export * from './readings.js';
export * from './controls.js';
export * from './ctrl-hint.js';
export * from './wire.js';
export * from './figures.js';
export * from './functions.js';
export { REFERENCE_FLOW, EMPTY_FLOW } from './definitions/common.js';
export { DEVCODE_2341 } from './definitions/dc2341.js';
export { DEVCODE_2376 } from './definitions/dc2376.js';
export { DEVCODE_2428 } from './definitions/dc2428.js';
export { DEVCODE_5121 } from './definitions/sw5121.js';
export { DEVCODE_5122 } from './definitions/sw5122.js';
export { DEVCODE_5123 } from './definitions/sw5123.js';
export { DEVCODE_5124 } from './definitions/sw5124.js';
export { DEVCODE_5125, ENV_MONITOR_DEVTYPE, ENV_MONITOR_FIELDS } from './definitions/sw5125.js';
export {
  DEVICE_TEXTS,
  DEVICE_TEXT_LOCALES,
  WIRE_TEXTS,
  collectDeviceTexts,
  deviceWireOptions,
  isDeviceText,
  localizeSample,
  translateDeviceText,
  type DeviceTextContext,
} from './i18n/index.js';
