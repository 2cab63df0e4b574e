/**
 * The kinds of the one export history (webQueryReportFiles): a plant report, a device report
 * (issue 11's energy report or issue 10's device sample export) and an alarm list.
 */
export const EXPORT_HISTORY_KINDS = ['plant', 'device', 'alarms'] as const;
export type ExportHistoryKind = (typeof EXPORT_HISTORY_KINDS)[number];
/**
 * Where a history row is stored: `report` (report files, issue 11) or `export` (issue 10's device
 * exports, `webQueryExportFiles`). A row is named by (origin, id): ids of the two sources overlap.
 */
export const EXPORT_HISTORY_ORIGINS = ['report', 'export'] as const;
export type ExportHistoryOrigin = (typeof EXPORT_HISTORY_ORIGINS)[number];
