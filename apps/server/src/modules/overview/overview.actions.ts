import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

export const overviewHandlers: HandlerMap = {
  webQueryFleetOverview: ({ params, ...i }, ctx) => ctx.services.overview.fleet(callerOf(i), params.timezone),
};
