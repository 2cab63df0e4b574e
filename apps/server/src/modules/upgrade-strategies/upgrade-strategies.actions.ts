import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 13 upgrade strategies (protocol actions/upgrade-strategies.ts); the rollout is strategy-rollout.ts. */
export const upgradeStrategyHandlers: HandlerMap = {
  addUpgradeStrategy: ({ params, ...i }, ctx) => ctx.services.upgradeStrategies.add(callerOf(i), params),
  editUpgradeStrategy: async ({ params, ...i }, ctx) => {
    await ctx.services.upgradeStrategies.edit(callerOf(i), params);
    return undefined;
  },
  cancelUpgradeStrategy: async ({ params, ...i }, ctx) => {
    await ctx.services.upgradeStrategies.cancel(callerOf(i), params.code);
    return undefined;
  },
  resumeUpgradeStrategy: async ({ params, ...i }, ctx) => {
    await ctx.services.upgradeStrategies.resume(callerOf(i), params.code);
    return undefined;
  },
  queryUpgradeStrategies: ({ params, ...i }, ctx) => ctx.services.upgradeStrategies.list(callerOf(i), params, i.call.locale),
  queryUpgradeStrategyDevices: ({ params, ...i }, ctx) => ctx.services.upgradeStrategies.devices(callerOf(i), params, i.call.locale),
  queryUpgradeStrategyCandidates: ({ params, ...i }, ctx) => ctx.services.upgradeStrategies.candidates(callerOf(i), params),
  queryDeviceSuggestedStrategies: ({ params, ...i }, ctx) => ctx.services.upgradeStrategies.suggested(callerOf(i), params),
};
