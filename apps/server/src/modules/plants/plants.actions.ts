import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';
import { DevicesService } from '../devices/devices.service.js';
import { PlantsService } from './plants.service.js';

export const plantHandlers: HandlerMap = {
  queryPlants: ({ params, ...i }, ctx) => new PlantsService(ctx).queryPlants(callerOf(i), params),
  queryPlantsInfo: (i, ctx) => new PlantsService(ctx).plantsInfo(callerOf(i)),
  webQueryPlants: ({ params, ...i }, ctx) => new PlantsService(ctx).webQueryPlants(callerOf(i), params),
  queryPlantInfo: ({ params, ...i }, ctx) => new PlantsService(ctx).info(callerOf(i), params.plantid),
  queryPlantDeviceStatus: ({ params, ...i }, ctx) => new PlantsService(ctx).deviceStatus(callerOf(i), params.plantid),
  queryPlantCurrentData: ({ params, ...i }, ctx) =>
    new PlantsService(ctx).currentData(callerOf(i), params.plantid, params.par),
  queryPlantDeviceDesignatedInformation: ({ params, ...i }, ctx) =>
    new PlantsService(ctx).designated(callerOf(i), params, i.call.locale),
  queryPlantActiveOuputPowerOneDay: ({ params, ...i }, ctx) =>
    new PlantsService(ctx).outputPowerOneDay(callerOf(i), params.plantid, params.date),
  queryPlantEnergyMonthPerDay: ({ params, ...i }, ctx) =>
    new PlantsService(ctx).monthPerDay(callerOf(i), params.plantid, params.date),
  queryPlantEnergyYearPerMonth: ({ params, ...i }, ctx) =>
    new PlantsService(ctx).yearPerMonth(callerOf(i), params.plantid, params.date),
  queryPlantEnergyTotalPerYear: ({ params, ...i }, ctx) =>
    new PlantsService(ctx).totalPerYear(callerOf(i), params.plantid),
  queryPlantEnergyDay: ({ params, ...i }, ctx) =>
    new PlantsService(ctx).energyOf(callerOf(i), params.plantid, 'day', params.date),
  queryPlantEnergyMonth: ({ params, ...i }, ctx) =>
    new PlantsService(ctx).energyOf(callerOf(i), params.plantid, 'month', params.date),
  queryPlantEnergyYear: ({ params, ...i }, ctx) =>
    new PlantsService(ctx).energyOf(callerOf(i), params.plantid, 'year', params.date),
  queryPlantEnergyTotal: ({ params, ...i }, ctx) =>
    new PlantsService(ctx).energyOf(callerOf(i), params.plantid, 'total'),
  queryPlantActiveOuputPowerCurrent: ({ params, ...i }, ctx) =>
    new PlantsService(ctx).powerNow(callerOf(i), params.plantid),
  webQueryPlantsMap: ({ params, ...i }, ctx) => new PlantsService(ctx).map(callerOf(i), params),
  queryPlantDeviceChartsFieldsByType: async ({ params, ...i }, ctx) => {
    const caller = callerOf(i);
    await new PlantsService(ctx).require(caller, params.plantid);
    return DevicesService.chartsFieldsByType(params.devcode, i.call.locale);
  },
};
