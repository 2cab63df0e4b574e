import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Alarm actions (issue 11): lists, counts, statistics, handling, filter rules. */
export const alarmHandlers: HandlerMap = {
  queryDeviceWarning: ({ params, ...i }, ctx) => ctx.services.alarms.deviceList(callerOf(i), params, i.call.locale),
  queryDeviceWarningCount: ({ params, ...i }, ctx) => ctx.services.alarms.deviceCount(callerOf(i), params),
  queryPlantsWarning: ({ params, ...i }, ctx) =>
    ctx.services.alarms.plantsList(callerOf(i), params, i.call.locale, false),
  webQueryPlantsWarning: ({ params, ...i }, ctx) =>
    ctx.services.alarms.plantsList(callerOf(i), params, i.call.locale, true),
  queryPlantWarningDeviceCount: ({ params, ...i }, ctx) => ctx.services.alarms.devicesInAlarm(callerOf(i), params),
  queryPlantsWarningDeviceCount: ({ params, ...i }, ctx) => ctx.services.alarms.devicesInAlarm(callerOf(i), params),
  ignorePlantWarning: async ({ params, ...i }, ctx) => {
    await ctx.services.alarms.handle(callerOf(i), [params.id]);
    return undefined;
  },
  handlePlantWarnings: ({ params, ...i }, ctx) => ctx.services.alarms.handle(callerOf(i), params.id),
  webQueryWarningStatistic: ({ params, ...i }, ctx) => ctx.services.alarms.statistic(callerOf(i), params),
  webQueryWarningRules: ({ params, ...i }, ctx) => ctx.services.alarmRules.list(callerOf(i), params),
  addWarningRule: ({ params, ...i }, ctx) => ctx.services.alarmRules.add(callerOf(i), params),
  editWarningRule: ({ params, ...i }, ctx) => ctx.services.alarmRules.edit(callerOf(i), params),
  delWarningRule: ({ params, ...i }, ctx) => ctx.services.alarmRules.del(callerOf(i), params.id),
};
