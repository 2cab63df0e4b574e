import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 10 device operations (protocol actions/device-ops.ts); services in `./ops/`. */
export const deviceOpsHandlers: HandlerMap = {
  queryDeviceCtrlField: ({ params, ...i }, ctx) =>
    ctx.services.deviceOps.control.fields(callerOf(i), params, i.call.locale),
  queryDeviceCtrlValue: ({ params, ...i }, ctx) =>
    ctx.services.deviceOps.control.value(callerOf(i), params, i.call.locale),
  ctrlDevice: ({ params, ...i }, ctx) => ctx.services.deviceOps.control.ctrl(callerOf(i), params),
  sendCmdToDevice: ({ params, ...i }, ctx) => ctx.services.deviceOps.control.sendCmd(callerOf(i), params),
  queryDeviceCtrlPwd: ({ params, ...i }, ctx) => ctx.services.deviceOps.pwd.query(callerOf(i), params.vendor),
  setDeviceCtrlPwd: async ({ params, ...i }, ctx) => {
    await ctx.services.deviceOps.pwd.set(callerOf(i), params.pwd, params.vendor);
    return undefined;
  },
  editDeviceInfo: async ({ params, ...i }, ctx) => {
    await ctx.services.deviceOps.edit.edit(callerOf(i), params);
    return undefined;
  },
  delDeviceFromPlant: async ({ params, ...i }, ctx) => {
    await ctx.services.deviceOps.edit.removeFromPlant(callerOf(i), params);
    return undefined;
  },
  querySPDeviceKeyParameterTotalPerYear: ({ params, ...i }, ctx) =>
    ctx.services.deviceOps.edit.totalPerYear(callerOf(i), params),
  exportDeviceReport: ({ params, ...i }, ctx) =>
    ctx.services.deviceOps.reports.start(callerOf(i), params, i.call.locale),
  webQueryExportFiles: ({ params, ...i }, ctx) => ctx.services.deviceOps.reports.list(callerOf(i), params),
  queryExportFileUrl: ({ params, ...i }, ctx) => ctx.services.deviceOps.reports.url(callerOf(i), params.id),
  delExportFile: async ({ params, ...i }, ctx) => {
    await ctx.services.deviceOps.reports.remove(callerOf(i), params.id);
    return undefined;
  },
  retryExportFile: ({ params, ...i }, ctx) => ctx.services.deviceOps.reports.retry(callerOf(i), params.id),
  syncDeviceData: ({ params, ...i }, ctx) => ctx.services.deviceOps.tools.sync(callerOf(i), params),
  recalcDeviceData: ({ params, ...i }, ctx) => ctx.services.deviceOps.tools.recalc(callerOf(i), params),
  webQueryOperationLog: ({ params, ...i }, ctx) =>
    ctx.services.deviceOps.history.query(callerOf(i), params, i.call.locale),
};
