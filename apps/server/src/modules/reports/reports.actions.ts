import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 11 reports and exports (protocol actions/reports.ts); services in this folder. */
export const reportHandlers: HandlerMap = {
  exportPlantReport: ({ params, ...i }, ctx) =>
    ctx.services.reports.files.startPlant(callerOf(i), params, i.call.locale),
  exportDeviceEnergyReport: ({ params, ...i }, ctx) =>
    ctx.services.reports.files.startDevice(callerOf(i), params, i.call.locale),
  webQueryReportFiles: ({ params, ...i }, ctx) => ctx.services.reports.files.list(callerOf(i), params),
  // The one export history names a row by (origin, id): a device export goes through issue 10's
  // own signed link and deletion (the caller's own files; no module needed here either).
  queryReportFileUrl: ({ params, ...i }, ctx) =>
    params.origin === 'export'
      ? ctx.services.deviceOps.reports.url(callerOf(i), params.id)
      : ctx.services.reports.files.url(callerOf(i), params.id),
  exportPlantsWarning: ({ params, ...i }, ctx) =>
    ctx.services.reports.alarmExport.start(callerOf(i), params, i.call.locale),
  delReportFile: async ({ params, ...i }, ctx) => {
    if (params.origin === 'export') await ctx.services.deviceOps.reports.remove(callerOf(i), params.id);
    else await ctx.services.reports.files.remove(callerOf(i), params.id);
    return undefined;
  },
};
