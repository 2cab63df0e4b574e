import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';
import { collectorRow, DataloggersService } from './dataloggers.service.js';

export const dataloggerHandlers: HandlerMap = {
  webQueryCollectorsEs: ({ params, ...i }, ctx) => new DataloggersService(ctx).webList(callerOf(i), params),
  queryCollectors: ({ params, ...i }, ctx) => new DataloggersService(ctx).queryCollectors(callerOf(i), params),
  queryCollectorInfo: async ({ params, ...i }, ctx) => ({
    collector: (await new DataloggersService(ctx).batch(callerOf(i), params.pn)).map(collectorRow),
  }),
  queryCollectorStatus: async ({ params, ...i }, ctx) => ({
    collector: (await new DataloggersService(ctx).batch(callerOf(i), params.pn)).map((r) => ({
      pn: r.pn,
      status: r.status,
    })),
  }),
  queryCollectorDevices: ({ params, ...i }, ctx) => new DataloggersService(ctx).devices(callerOf(i), params.pn),
};
