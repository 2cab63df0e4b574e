import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';
import { DevicesService } from './devices.service.js';

const svc = (ctx: ConstructorParameters<typeof DevicesService>[0]) => new DevicesService(ctx);

export const deviceHandlers: HandlerMap = {
  webQueryDeviceEs: ({ params, ...i }, ctx) => svc(ctx).webList(callerOf(i), params),
  queryDeviceInfo: async ({ params, ...i }, ctx) => ({
    device: (await svc(ctx).batch(callerOf(i), params)).map(DevicesService.info),
  }),
  queryDeviceStatus: async ({ params, ...i }, ctx) => ({
    device: (await svc(ctx).batch(callerOf(i), params)).map((d) => ({
      pn: d.pn,
      devcode: d.devcode,
      devaddr: d.devaddr,
      sn: d.sn,
      status: d.status,
    })),
  }),
  queryDeviceLastData: ({ params, ...i }, ctx) => svc(ctx).lastDataList(callerOf(i), params, i.call.locale),
  querySPDeviceLastData: ({ params, ...i }, ctx) => svc(ctx).spLastData(callerOf(i), params, i.call.locale),
  webQueryDeviceEnergyFlowEs: ({ params, ...i }, ctx) => svc(ctx).energyFlow(callerOf(i), params),
  queryDeviceParsEs: ({ params, ...i }, ctx) => svc(ctx).parsEs(callerOf(i), params, i.call.locale),
  queryDeviceChartsFieldsEs: ({ params, ...i }, ctx) => svc(ctx).chartsFields(callerOf(i), params, i.call.locale),
  querySPKeyParameters: ({ params, ...i }, ctx) => svc(ctx).keyParameters(callerOf(i), params),
  queryDeviceRealLastData: ({ params, ...i }, ctx) => svc(ctx).realLastData(callerOf(i), params, i.call.locale),
  queryDeviceChartFieldDetailData: ({ params, ...i }, ctx) =>
    svc(ctx).chartFieldDetail(callerOf(i), params, i.call.locale),
  querySPDeviceKeyParameterOneDay: ({ params, ...i }, ctx) => svc(ctx).keyParameterOneDay(callerOf(i), params),
  queryDeviceDataOneDay: ({ params, ...i }, ctx) => svc(ctx).dataOneDay(callerOf(i), params, i.call.locale),
  queryDeviceDataOneDayPaging: ({ params, ...i }, ctx) => svc(ctx).dataOneDayPaging(callerOf(i), params, i.call.locale),
  queryDeviceActiveOuputPowerOneDay24Hour: ({ params, ...i }, ctx) => svc(ctx).outputPowerOneDay(callerOf(i), params),
  webQueryDeviceStatistic: ({ params, ...i }, ctx) => svc(ctx).statistic(callerOf(i), params),
  webQueryDeviceEnergyChart: ({ params, ...i }, ctx) => svc(ctx).energyChart(callerOf(i), params),
  webQueryDeviceParamCurves: ({ params, ...i }, ctx) => svc(ctx).paramCurves(callerOf(i), params, i.call.locale),
  focusDevice: ({ params, ...i }, ctx) => svc(ctx).follow(callerOf(i), params, true),
  unfocusDevice: ({ params, ...i }, ctx) => svc(ctx).follow(callerOf(i), params, false),
};
