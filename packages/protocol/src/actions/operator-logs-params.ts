/**
 * Constants of the operator's log pages (issue 14, operator-logs.ts): the reasons a datalogger's
 * MQTT sign-in is refused (`datalogger_events.detail` of an `auth_fail` row, translated on the web),
 * the result filter of the datalogger log and the bounds of log retention.
 */

/**
 * Why the broker refused a datalogger's sign-in, written as the `detail` of its `auth_fail` event
 * (a client id follows after a space for `client_id`).
 */
export const AUTH_FAIL_REASONS = [
  /** No user name or no password in CONNECT. */
  'no_credentials',
  /** The user name is no datalogger of the platform. */
  'unknown_pn',
  /** The datalogger exists but has no device token yet (never provisioned, or reset). */
  'no_token',
  /** The password is not the datalogger's device token. */
  'wrong_token',
  /** The client id is not derived from the PN (`dl-<PN>` or `dl-<PN>/<suffix>`). */
  'client_id',
] as const;
export type AuthFailReason = (typeof AUTH_FAIL_REASONS)[number];

/** The result filter of queryCollectorLogs: `ok` result 0, `failed` any other result. */
export const COLLECTOR_LOG_RESULTS = ['ok', 'failed'] as const;
export type CollectorLogResult = (typeof COLLECTOR_LOG_RESULTS)[number];

/** Longest time range of one datalogger log query of the whole platform (days). */
export const COLLECTOR_LOGS_MAX_DAYS = 31;

/** Retention of the logs, in days kept (setLogRetention). */
export const LOG_RETENTION_DAYS = { min: 1, max: 3650, defaultActionLog: 90, defaultCollectorLog: 90 } as const;

/**
 * Retention of the raw samples, in days kept (issue 16; setLogRetention `sampleDays`). Day rollups
 * are kept for ever. At least a month, so a slip of the keyboard cannot wipe a fleet's history.
 */
export const SAMPLE_RETENTION_DAYS = { min: 30, max: 3650, default: 730 } as const;
