import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';
import { chartsFieldsByType } from '../devices/device-reads.service.js';

export const plantHandlers: HandlerMap = {
  queryPlants: ({ params, ...i }, ctx) => ctx.services.plants.queryPlants(callerOf(i), params),
  queryPlantsInfo: (i, ctx) => ctx.services.plants.plantsInfo(callerOf(i)),
  webQueryPlants: ({ params, ...i }, ctx) => ctx.services.plants.webQueryPlants(callerOf(i), params),
  queryPlantInfo: ({ params, ...i }, ctx) => ctx.services.plants.info(callerOf(i), params.plantid),
  queryPlantDeviceStatus: ({ params, ...i }, ctx) => ctx.services.plants.deviceStatus(callerOf(i), params.plantid),
  queryPlantCurrentData: ({ params, ...i }, ctx) =>
    ctx.services.plants.currentData(callerOf(i), params.plantid, params.par),
  queryPlantDeviceDesignatedInformation: ({ params, ...i }, ctx) =>
    ctx.services.plants.designated(callerOf(i), params, i.call.locale),
  queryPlantActiveOuputPowerOneDay: ({ params, ...i }, ctx) =>
    ctx.services.plants.outputPowerOneDay(callerOf(i), params.plantid, params.date),
  queryPlantEnergyMonthPerDay: ({ params, ...i }, ctx) =>
    ctx.services.plants.monthPerDay(callerOf(i), params.plantid, params.date),
  queryPlantEnergyYearPerMonth: ({ params, ...i }, ctx) =>
    ctx.services.plants.yearPerMonth(callerOf(i), params.plantid, params.date),
  queryPlantEnergyTotalPerYear: ({ params, ...i }, ctx) =>
    ctx.services.plants.totalPerYear(callerOf(i), params.plantid),
  queryPlantEnergyDay: ({ params, ...i }, ctx) =>
    ctx.services.plants.energyOf(callerOf(i), params.plantid, 'day', params.date),
  queryPlantEnergyMonth: ({ params, ...i }, ctx) =>
    ctx.services.plants.energyOf(callerOf(i), params.plantid, 'month', params.date),
  queryPlantEnergyYear: ({ params, ...i }, ctx) =>
    ctx.services.plants.energyOf(callerOf(i), params.plantid, 'year', params.date),
  queryPlantEnergyTotal: ({ params, ...i }, ctx) => ctx.services.plants.energyOf(callerOf(i), params.plantid, 'total'),
  queryPlantActiveOuputPowerCurrent: ({ params, ...i }, ctx) =>
    ctx.services.plants.powerNow(callerOf(i), params.plantid),
  webQueryPlantsMap: ({ params, ...i }, ctx) => ctx.services.plants.map(callerOf(i), params),
  queryPlantDeviceChartsFieldsByType: async ({ params, ...i }, ctx) => {
    const caller = callerOf(i);
    await ctx.services.plants.require(caller, params.plantid);
    return chartsFieldsByType(params.devcode, i.call.locale);
  },
};
