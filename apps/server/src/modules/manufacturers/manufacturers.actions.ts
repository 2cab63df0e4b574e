import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';
import { subAccountPasswordOfCall } from '../accounts/sub-account-password.js';

/** Issue 14 factoryAccount actions (protocol actions/manufacturers.ts); roles checked by the dispatcher. */
export const manufacturerHandlers: HandlerMap = {
  queryManufacturers: ({ params }, ctx) => ctx.services.manufacturers.list(params),
  addManufacturer: ({ params, ...i }, ctx) => {
    const { pwd, pwdtext, ...rest } = params;
    const pwdSha1 = subAccountPasswordOfCall({ pwd, pwdtext }, i.call, ctx.config);
    return ctx.services.manufacturers.add(callerOf(i), { ...rest, devcodes: rest.devcodes ?? [], pwdSha1 });
  },
  editManufacturer: async ({ params, ...i }, ctx) => {
    await ctx.services.manufacturers.edit(callerOf(i), params);
    return undefined;
  },
  setManufacturerEnabled: async ({ params, ...i }, ctx) => {
    await ctx.services.manufacturers.setEnabled(callerOf(i), params.uid, params.enabled);
    return undefined;
  },
  adjustManufacturerEcoin: ({ params, ...i }, ctx) =>
    ctx.services.manufacturers.adjustEcoin(callerOf(i), params.uid, params.delta, params.reason),
  queryManufacturerEcoinLog: ({ params }, ctx) => ctx.services.manufacturers.ecoinLog(params.uid, params),
  queryVisibleDevcodes: (i, ctx) => ctx.services.manufacturers.visibleFor(callerOf(i)),
};
