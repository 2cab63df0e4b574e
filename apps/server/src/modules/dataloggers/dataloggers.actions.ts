import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';
import { collectorRow } from './dataloggers.service.js';

export const dataloggerHandlers: HandlerMap = {
  webQueryCollectorsEs: ({ params, ...i }, ctx) => ctx.services.dataloggers.webList(callerOf(i), params),
  queryCollectors: ({ params, ...i }, ctx) => ctx.services.dataloggers.queryCollectors(callerOf(i), params),
  queryCollectorInfo: async ({ params, ...i }, ctx) => ({
    collector: (await ctx.services.dataloggers.batch(callerOf(i), params.pn)).map(collectorRow),
  }),
  queryCollectorStatus: async ({ params, ...i }, ctx) => ({
    collector: (await ctx.services.dataloggers.batch(callerOf(i), params.pn)).map((r) => ({
      pn: r.pn,
      status: r.status,
    })),
  }),
  queryCollectorDevices: ({ params, ...i }, ctx) => ctx.services.dataloggers.devices(callerOf(i), params.pn),
};
