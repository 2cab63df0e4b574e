import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 10: plant management, fleet energy queries, the plant tree and environment monitor. */
export const plantAdminHandlers: HandlerMap = {
  addPlant: ({ params, ...i }, ctx) => ctx.services.plantAdmin.add(callerOf(i), params),
  editPlant: async ({ params, ...i }, ctx) => {
    await ctx.services.plantAdmin.edit(callerOf(i), params);
  },
  delPlant: async ({ params, ...i }, ctx) => {
    await ctx.services.plantAdmin.remove(callerOf(i), params.plantid);
  },
  editPlantEnergyOffset: async ({ params, ...i }, ctx) => {
    await ctx.services.plantAdmin.setEnergyOffset(callerOf(i), params.plantid, params.energyOffset);
  },
  uploadPlantImage: ({ call }, ctx) => ctx.services.plantImages.store(call.files[0]),
  queryPlantCount: ({ params, ...i }, ctx) => ctx.services.plantFleet.count(callerOf(i), params.status),
  queryPlantsProfitOneDay: ({ params, ...i }, ctx) => ctx.services.plantFleet.profitOneDay(callerOf(i), params),
  queryPlantsEnergyYear: ({ params, ...i }, ctx) => ctx.services.plantFleet.energyYear(callerOf(i), params.date),
  queryPlantsEnergyMonthPerDay: ({ params, ...i }, ctx) => ctx.services.plantFleet.monthPerDay(callerOf(i), params.date),
  queryPlantsEnergyYearPerMonth: ({ params, ...i }, ctx) =>
    ctx.services.plantFleet.yearPerMonth(callerOf(i), params.date),
  queryPlantEnvMonitor: ({ params, ...i }, ctx) => ctx.services.plantFleet.envMonitor(callerOf(i), params.plantid),
  queryPlantDeviceView: ({ params, ...i }, ctx) => ctx.services.plantFleet.deviceView(callerOf(i), params.plantid),
};
