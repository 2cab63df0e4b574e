import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';

/** Issue 15 payment actions (protocol actions/payments.ts); roles checked by the dispatcher. */
export const paymentHandlers: HandlerMap = {
  payOrder: ({ params, ...i }, ctx) => ctx.services.payments.payOrder(callerOf(i), params, i.call.locale),
  queryPayResult: ({ params, ...i }, ctx) => ctx.services.payments.result(callerOf(i), params),
};
