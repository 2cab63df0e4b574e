import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 15: tariffs and income (docs/money/tariffs.md). */
export const tariffHandlers: HandlerMap = {
  queryPlantTariffs: ({ params, ...i }, ctx) => ctx.services.tariffs.list(callerOf(i), params),
  addPlantTariff: ({ params, ...i }, ctx) => ctx.services.tariffs.add(callerOf(i), params),
  editPlantTariff: async ({ params, ...i }, ctx) => {
    await ctx.services.tariffs.edit(callerOf(i), params);
  },
  delPlantTariff: async ({ params, ...i }, ctx) => {
    await ctx.services.tariffs.remove(callerOf(i), params.id);
  },
  queryPlantIncome: ({ params, ...i }, ctx) => ctx.services.tariffs.income(callerOf(i), params),
  queryFleetIncome: (i, ctx) => ctx.services.tariffs.fleet(callerOf(i)),
};
