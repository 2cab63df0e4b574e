/**
 * Constants of the device-operation actions (device-ops.ts); kept apart because the catalogue
 * spreads the action modules, which export actions (and types) only.
 */

/** Parameters of querySPDeviceKeyParameterTotalPerYear (vendor DM:ch14). */
export const KEY_PARAMETER_TOTALS = [
  'BATTERY_ENERGY_TOTAL_DISCHARGE',
  'BATTERY_ENERGY_TOTAL_CHARGE',
  'LOAD_ENERGY_TOTAL',
  'ENERGY_TOTAL_TO_GRID',
  'ENERGY_TOTAL_FROM_GRID',
  'PV_ENERGY_TOTAL',
] as const;
export type KeyParameterTotal = (typeof KEY_PARAMETER_TOTALS)[number];

/** Export-file status: 0 exporting, 1 downloadable, 2 failed. */
export const EXPORT_STATUS = { EXPORTING: 0, READY: 1, FAILED: 2 } as const;
export const REPORT_MAX_DAYS = 31;


/** Length of a device-control password (setDeviceCtrlPwd); no white space. */
export const CTRL_PWD_MIN = 6;
export const CTRL_PWD_MAX = 32;

/** Whether `pwd` may be a device-control password (6–32 characters, no white space). */
export function isValidCtrlPwd(pwd: string): boolean {
  return pwd.length >= CTRL_PWD_MIN && pwd.length <= CTRL_PWD_MAX && !/\s/.test(pwd);
}
