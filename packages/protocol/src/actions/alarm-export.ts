import { defineAction, result } from './define.js';
import { webQueryPlantsWarning } from './alarms.js';
import type { ReportFileRow } from './reports.js';

/**
 * Alarm list export (issue 11; spec §2 "Alarms: … export-history list", function points
 * `alarm_export` / `alarm_export_file` of the alarm module). The vendor documents no export action
 * (vendor-actions.md §8, §9 "[gap]"), so the name follows the vendor style of the fleet list:
 * `exportPlantsWarning` takes exactly the filters of `webQueryPlantsWarning` (without paging) and
 * the same scoping, and queues a background xlsx job of the reports module: the file appears in
 * the caller's export history (`webQueryReportFiles`, `type: 'alarms'`) with progress and
 * downloads through `queryReportFileUrl` (signed, expiring).
 *
 * Errors: 6 (one of `sdate`/`edate` without the other, bad values), 260 (a `plantid` the caller
 * does not see), 264 (nothing matches: no file), 13 (more than ALARM_EXPORT_MAX_ROWS alarms
 * match: narrow the filters). Constants in alarm-export-params.ts (the catalogue spreads this
 * module: actions only).
 */

export const exportPlantsWarning = defineAction({
  name: 'exportPlantsWarning',
  summary:
    "Queues an xlsx export of the alarm list with the filters of webQueryPlantsWarning (same scope; descriptions and headers in the call's language, times in each plant's timezone); answers the export-history row {…, type: 'alarms', status: 0}. err 6, 260, 264 nothing to export, 13 more than 100,000 alarms.",
  params: webQueryPlantsWarning.params.omit({ page: true, pagesize: true }),
  access: { auth: 'signed', permission: 'alarm_manag', button: 'alarm_export_file' },
  mutates: true,
  result: result<ReportFileRow>(),
});
