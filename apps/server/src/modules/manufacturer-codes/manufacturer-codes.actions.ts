import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 14 factoryCode actions (protocol actions/manufacturer-codes.ts); operator only, checked by the dispatcher. */
export const manufacturerCodeHandlers: HandlerMap = {
  queryManufacturerCodes: ({ params }, ctx) => ctx.services.manufacturerCodes.list(params),
  addManufacturerCode: ({ params, ...i }, ctx) => ctx.services.manufacturerCodes.add(callerOf(i), params),
  setManufacturerCodeEnabled: async ({ params, ...i }, ctx) => {
    await ctx.services.manufacturerCodes.setEnabled(callerOf(i), params.id, params.enabled);
    return undefined;
  },
  editManufacturerCode: async ({ params, ...i }, ctx) => {
    await ctx.services.manufacturerCodes.edit(callerOf(i), params);
    return undefined;
  },
  deleteManufacturerCode: async ({ params, ...i }, ctx) => {
    await ctx.services.manufacturerCodes.remove(callerOf(i), params.id);
    return undefined;
  },
};
