import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';
import { fleetOverview } from './overview.service.js';

export const overviewHandlers: HandlerMap = {
  webQueryFleetOverview: ({ params, ...i }, ctx) => fleetOverview(ctx, callerOf(i), params.timezone),
};
