import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 15 acceleration orders (protocol actions/acceleration.ts); roles and permission checked by the dispatcher. */
export const accelerationHandlers: HandlerMap = {
  queryAccelerationCandidates: ({ params, ...i }, ctx) => ctx.services.acceleration.candidates(callerOf(i), params),
  queryAccelerationQuote: ({ params, ...i }, ctx) => ctx.services.acceleration.quote(callerOf(i), params),
  createAccelerationOrder: ({ params, ...i }, ctx) => ctx.services.acceleration.create(callerOf(i), params),
  queryAccelerationOrders: ({ params, ...i }, ctx) => ctx.services.acceleration.list(callerOf(i), params),
  queryAccelerationOrder: ({ params, ...i }, ctx) => ctx.services.acceleration.one(callerOf(i), params.orderNo),
  queryAccelerationChanges: ({ params, ...i }, ctx) => ctx.services.acceleration.changes(callerOf(i), params),
};
