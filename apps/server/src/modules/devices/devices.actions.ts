import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';
import { DeviceListService } from './device-list.service.js';

/** Device actions: lists (`list`), real-time reads (`reads`), curves, statistics, follows. */
export const deviceHandlers: HandlerMap = {
  webQueryDeviceEs: ({ params, ...i }, ctx) => ctx.services.devices.list.webList(callerOf(i), params),
  queryFleetDevices: ({ params, ...i }, ctx) => ctx.services.devices.list.fleetList(callerOf(i), params),
  queryDeviceInfo: async ({ params, ...i }, ctx) => ({
    device: (await ctx.services.devices.list.batch(callerOf(i), params)).map(DeviceListService.info),
  }),
  queryDeviceStatus: async ({ params, ...i }, ctx) => ({
    device: (await ctx.services.devices.list.batch(callerOf(i), params)).map((d) => ({
      pn: d.pn,
      devcode: d.devcode,
      devaddr: d.devaddr,
      sn: d.sn,
      status: d.status,
    })),
  }),
  queryDeviceLastData: ({ params, ...i }, ctx) =>
    ctx.services.devices.reads.lastDataList(callerOf(i), params, i.call.locale),
  querySPDeviceLastData: ({ params, ...i }, ctx) =>
    ctx.services.devices.reads.spLastData(callerOf(i), params, i.call.locale),
  webQueryDeviceEnergyFlowEs: ({ params, ...i }, ctx) => ctx.services.devices.reads.energyFlow(callerOf(i), params),
  queryDeviceParsEs: ({ params, ...i }, ctx) => ctx.services.devices.reads.parsEs(callerOf(i), params, i.call.locale),
  queryDeviceChartsFieldsEs: ({ params, ...i }, ctx) =>
    ctx.services.devices.reads.chartsFields(callerOf(i), params, i.call.locale),
  querySPKeyParameters: ({ params, ...i }, ctx) => ctx.services.devices.reads.keyParameters(callerOf(i), params),
  queryDeviceRealLastData: ({ params, ...i }, ctx) =>
    ctx.services.devices.reads.realLastData(callerOf(i), params, i.call.locale),
  queryDeviceChartFieldDetailData: ({ params, ...i }, ctx) =>
    ctx.services.devices.curves.chartFieldDetail(callerOf(i), params, i.call.locale),
  querySPDeviceKeyParameterOneDay: ({ params, ...i }, ctx) =>
    ctx.services.devices.curves.keyParameterOneDay(callerOf(i), params),
  queryDeviceDataOneDay: ({ params, ...i }, ctx) =>
    ctx.services.devices.curves.dataOneDay(callerOf(i), params, i.call.locale),
  queryDeviceDataOneDayPaging: ({ params, ...i }, ctx) =>
    ctx.services.devices.curves.dataOneDayPaging(callerOf(i), params, i.call.locale),
  queryDeviceActiveOuputPowerOneDay24Hour: ({ params, ...i }, ctx) =>
    ctx.services.devices.curves.outputPowerOneDay(callerOf(i), params),
  webQueryDeviceStatistic: ({ params, ...i }, ctx) => ctx.services.devices.statistics.statistic(callerOf(i), params),
  webQueryDeviceEnergyChart: ({ params, ...i }, ctx) =>
    ctx.services.devices.statistics.energyChart(callerOf(i), params),
  webQueryDeviceParamCurves: ({ params, ...i }, ctx) =>
    ctx.services.devices.curves.paramCurves(callerOf(i), params, i.call.locale),
  focusDevice: ({ params, ...i }, ctx) => ctx.services.devices.follow.follow(callerOf(i), params, true),
  unfocusDevice: ({ params, ...i }, ctx) => ctx.services.devices.follow.follow(callerOf(i), params, false),
};
