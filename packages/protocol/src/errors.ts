/**
 * The error catalogue of spec §8: every code with its wire `desc` name. Messages in all
 * 11 languages live in `i18n/<locale>/errors.json`, keyed by code; the device-control and
 * order-allocation contexts reuse codes with their own wording (`deviceControl.<code>`,
 * `orderAllocation.<code>`).
 */
export const ERRORS = {
  // General
  0: 'ERR_NONE',
  1: 'ERR_FAIL',
  2: 'ERR_TIMEOUT',
  3: 'ERR_SYSTEM_EXCEPTION',
  4: 'ERR_SIGN',
  5: 'ERR_SALT',
  6: 'ERR_FORMAT_ERROR',
  7: 'ERR_MISSING_PARAMETER',
  8: 'ERR_FORBIDDEN',
  9: 'ERR_UNSUPPORTED',
  10: 'ERR_NO_AUTH',
  11: 'ERR_NO_PERMISSION',
  12: 'ERR_NO_RECORD',
  13: 'ERR_OVER_LIMITED',
  14: 'ERR_DUPLICATE_OPER',
  15: 'ERR_NOT_FOUND_COMPANY_KEY',
  16: 'ERR_PASSWORD_VERIF_FAIL',
  17: 'ERR_PASSWORD_FORMAT_ERROR',
  18: 'ERR_MOBILE_BINDED',
  19: 'ERR_MOBILE_FORMAT',
  20: 'ERR_EMAIL_FORMAT',
  21: 'ERR_USRNAME_FORMAT',
  22: 'ERR_COMPANY_NAME_FORMAT',
  23: 'ERR_VCODE_INVALID',
  24: 'ERR_USR_NAME_DUPLICATE',
  25: 'ERR_USR_DISABLED',
  26: 'ERR_EMAIL_BINDED',
  27: 'ERR_USR_CANCELLED',
  // Data
  256: 'ERR_NOT_FOUND_RECORD',
  257: 'ERR_NOT_FOUND_COLLECTOR',
  258: 'ERR_NOT_FOUND_DEVICE',
  259: 'ERR_INVALID_PN',
  260: 'ERR_NOT_FOUND_PLANT',
  261: 'ERR_NOT_FOUND_USR',
  262: 'ERR_DEVICE_OFFLINE',
  263: 'ERR_COLLECTOR_OFFLINE',
  264: 'ERR_NOT_FOUND_DEVICE_WARNING',
  265: 'ERR_NOT_FOUND_ENVMONITOR',
  271: 'ERR_NONE_OPERATION',
  272: 'ERR_REPEAT_BINDING',
  273: 'ERR_NOT_SUPPORT_ADD_OTHER_VCODE_COLLECTOR',
  276: 'ERR_NOT_SUPPORT_MOVE_OTHER_VCODE_USR',
  288: 'ERR_NOT_FOUND_CAMERA',
  352: 'ERR_NOT_FOUND_FIREWARE',
  353: 'ERR_NOT_FOUND_PROTOCOL',
  368: 'ERR_NOT_FOUND_DEFINEDROLE',
  369: 'ERR_NOT_FOUND_USR_GROUP',
  370: 'ERR_NOT_FOUND_PLANT_GROUP',
  371: 'ERR_NOT_FOUND_GPRS_PACKAGE',
  372: 'ERR_NOT_FOUND_GPRS_ORDER',
  384: 'ERR_VERIFY_CODE',
  385: 'ERR_NOT_FOUND_DEVICE_TOKEN',
  386: 'ERR_NOT_FOUND_DEVICE_CONFIG',
  387: 'ERR_NOT_FOUND_COLLECTOR_TYPE',
  // Account and operation
  512: 'ERR_SMS_CODE_MISMATCH',
  513: 'ERR_SMS_CODE_EXPIRED',
  514: 'ERR_MOBILE_UNBINDED',
  515: 'ERR_MOBILE_MISMATCH',
  516: 'ERR_NAME_DUPLICATE',
  517: 'ERR_COLLECOTR_ISNOT_EMPTY',
  518: 'ERR_SUBUSR_ISNOT_EMPTY',
  519: 'ERR_USR_EXISTED',
  520: 'ERR_PN_REGISTER',
  521: 'ERR_RECEIVER_NOT_BELONG_USR',
  522: 'ERR_COLLECTOR_EXISTED',
  523: 'ERR_NOT_PLANTBROWSER',
  524: 'ERR_SMS_CODE_TOO_FREQUENT',
  525: 'ERR_SMS_CODE_ALREADY_SENT',
  528: 'ERR_ROLE_BOUND_USR',
  768: 'ERR_NOT_FOUND_OPTIONAL_FIELD',
  772: 'ERR_COLLECTOR_BINDED',
  1024: 'ERR_ONLY_SUPPORT_OWNER',
  1025: 'ERR_OLNY_SUPPORT_DIST',
  1026: 'ERR_ONLY_SUPPORT_VENDOR',
  1027: 'ERR_PARENT_MUST_DIST_OR_VENDOR',
  1028: 'ERR_UNSUPPORTED_RECHARGE_METHOD',
  1029: 'ERR_DUPLICATE_PN',
  1030: 'ERR_INVALID_GPRS_CARD',
  1031: 'ERR_USR_NOT_CREATED_BY_ADMIN',
  1033: 'ERR_QR_WAITING',
  1040: 'ERR_QR_SCANNED',
  1041: 'ERR_QR_KEY_INVALID',
  1042: 'ERR_INVALID_CCID',
  1792: 'ERR_COLLECTOR_NOT_BELONG_DIST',
} as const;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS).map(Number) as ErrorCode[];

/** Codes that the device-control context words differently (spec §8 "Device control errors"). */
export const DEVICE_CONTROL_CODES = [1, 2, 6, 8, 9, 11, 263] as const;
/** Codes that the order-allocation context words differently (spec §8 "Order allocation errors"). */
export const ORDER_ALLOCATION_CODES = [1, 7, 8, 12, 23, 259, 261, 772] as const;

export type ErrorContext = 'general' | 'deviceControl' | 'orderAllocation';

export function errorDesc(code: number): string {
  return (ERRORS as Record<number, string>)[code] ?? 'ERR_FAIL';
}

export function isErrorCode(code: number): code is ErrorCode {
  return code in ERRORS;
}

/** The i18n key of a code's message in `errors.json`. */
export function errorMessageKey(code: number, context: ErrorContext = 'general'): string {
  if (context === 'deviceControl' && (DEVICE_CONTROL_CODES as readonly number[]).includes(code)) {
    return `deviceControl.${code}`;
  }
  if (context === 'orderAllocation' && (ORDER_ALLOCATION_CODES as readonly number[]).includes(code)) {
    return `orderAllocation.${code}`;
  }
  return String(code);
}

/** A failure that maps onto the wire envelope: `{err, desc: "NAME(detail)"}`. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    /** Detail appended to desc in parentheses, vendor style: `ERR_FORMAT_ERROR(usr)`. */
    readonly detail?: string,
    /** Interpolation values for the localised message (`{{seconds}}`). */
    readonly values?: Record<string, string | number>,
    /** A more specific message than the code's own, e.g. `special.loginThrottled`. */
    readonly messageKey?: string,
  ) {
    super(detail ? `${errorDesc(code)}(${detail})` : errorDesc(code));
    this.name = 'ApiError';
  }
  get desc(): string {
    return this.message;
  }
}
