import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 12 branding actions (protocol actions/branding.ts); HTTP services in branding.routes.ts. */
export const brandingHandlers: HandlerMap = {
  queryDomainListNotLogin: async (_i, ctx) => Promise.resolve(ctx.services.branding.nodes()),
  queryDomainApp: async ({ params }, ctx) => Promise.resolve(ctx.services.branding.app(params.host)),
  setPlatformNotice: ({ params, ...i }, ctx) => ctx.services.branding.setNotice(callerOf(i), params),
  setConsultParam: async ({ params, ...i }, ctx) => {
    await ctx.services.branding.setContact(callerOf(i), params);
    return undefined;
  },
};
