/**
 * Constants of the caller-scoped recharge records (recharge-records.ts; the catalogue spreads that
 * module, so its constants live here). docs/money/recharge-records.md.
 */

/** Most orders one export holds; more matching orders answer err 13 (narrow the filters). */
export const RECHARGE_EXPORT_MAX_ROWS = 10_000;

/** Largest page of the caller's recharge records. */
export const RECHARGE_RECORDS_MAX_PAGE = 100;
