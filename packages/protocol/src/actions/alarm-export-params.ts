/**
 * Constants of the alarm list export (alarm-export.ts holds the action only: the catalogue spreads
 * that module).
 */

/** Most alarms one export holds; more → err 13 "beyond limit" (spec §8), narrow the filters. */
export const ALARM_EXPORT_MAX_ROWS = 100_000;
/** `scope` and `type` of an alarm export in the export history (`webQueryReportFiles`). */
export const ALARM_EXPORT_KIND = 'alarms' as const;
export type AlarmExportKind = typeof ALARM_EXPORT_KIND;
