import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 14 KEYList actions (protocol actions/company-keys.ts); operator only, checked by the dispatcher. */
export const companyKeyHandlers: HandlerMap = {
  queryCompanyKeyList: ({ params }, ctx) => ctx.services.companyKeys.list(params),
  addCompanyKey: ({ params, ...i }, ctx) => ctx.services.companyKeys.add(callerOf(i), params),
  editCompanyKey: async ({ params, ...i }, ctx) => {
    await ctx.services.companyKeys.edit(callerOf(i), params);
    return undefined;
  },
  setCompanyKeyEnabled: async ({ params, ...i }, ctx) => {
    await ctx.services.companyKeys.setEnabled(callerOf(i), params.id, params.enabled);
    return undefined;
  },
};
