/** Validation rules of upgrade strategies (issue 13), shared by server and web. */

/** Strategy name length (spec §5). */
export const STRATEGY_NAME_MIN = 2;
export const STRATEGY_NAME_MAX = 64;
export const STRATEGY_TEXT_MAX = 500;
/** Most associated devices per strategy (one call). */
export const STRATEGY_DEVICES_MAX = 5000;
/** `YYYY-MM-DD HH:mm` or `YYYY-MM-DD HH:mm:ss`, local time of the strategy's timezone. */
export const STRATEGY_TIME_RE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/;
/** An associated device on the wire: `PN` (the datalogger itself) or `PN:SN` (a device behind it). */
export const STRATEGY_DEVICE_RE = /^[A-Za-z0-9]{6,32}(:[A-Za-z0-9_-]{1,32})?$/;
/** Timezone: seconds east of UTC, quarter-hour steps, −12 h … +14 h. */
export const STRATEGY_TZ_MIN = -12 * 3600;
export const STRATEGY_TZ_MAX = 14 * 3600;
